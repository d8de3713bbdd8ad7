//! The one list of IPC commands: every `#[tauri::command]` fn in `src-tauri/src/commands/`.
//! build.rs reads it with `syn` and generates from it the handler registration, the ACL
//! manifest's command names, the capability that allows them, and the TypeScript API
//! (`ui/src/ipc/commands.ts`) with each command's real argument and result types.
//!
//! Adding a command is writing its fn (public, in one of those modules): nothing else
//! names it. Its arguments and result must be types the generator can name in TypeScript:
//! a ts-rs type from core (exported to `ui/src/bindings`), `Vec`, `Option`, `String`,
//! `bool`, a number or `()`. `State`, `AppHandle` and the window are injected by Tauri and
//! never cross IPC.

use std::collections::BTreeSet;

use syn::{Attribute, FnArg, GenericArgument, Item, Pat, PathArguments, ReturnType, Type};

/// One command as the webview sees it.
#[derive(Debug, PartialEq)]
pub struct Command {
    /// The module under `commands/` that holds the fn.
    pub module: String,
    /// The fn's name, which is the IPC name.
    pub name: String,
    pub docs: Vec<String>,
    /// What the webview sends: Tauri's camelCase argument name and its TypeScript type.
    pub args: Vec<(String, Ts)>,
    pub output: Ts,
}

/// A TypeScript type and the generated bindings it imports.
#[derive(Debug, PartialEq)]
pub struct Ts {
    pub text: String,
    pub imports: BTreeSet<String>,
}

/// Arguments Tauri fills in itself, never sent by the webview.
const INJECTED: &[&str] = &["State", "AppHandle", "Window", "WebviewWindow", "Webview"];

/// The commands in one module's source, in the order they are written.
pub fn parse(module: &str, source: &str) -> Result<Vec<Command>, String> {
    let file = syn::parse_file(source).map_err(|e| format!("commands/{module}.rs: {e}"))?;
    let mut commands = Vec::new();
    for item in file.items {
        let Item::Fn(f) = item else { continue };
        let Some(attr) = f.attrs.iter().find(|a| is_command(a)) else {
            continue;
        };
        let name = f.sig.ident.to_string();
        let at = |what: String| format!("commands/{module}.rs, {name}: {what}");
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            return Err(at(
                "`#[tauri::command(..)]` options are not supported here; \
                 arguments are camelCase on the wire"
                    .into(),
            ));
        }
        if !matches!(f.vis, syn::Visibility::Public(_)) {
            return Err(at("a command must be `pub` to be registered".into()));
        }
        let mut args = Vec::new();
        for input in &f.sig.inputs {
            let FnArg::Typed(arg) = input else {
                return Err(at("a command takes no `self`".into()));
            };
            if injected(&arg.ty) {
                continue;
            }
            let Pat::Ident(ident) = &*arg.pat else {
                return Err(at("arguments must be plain names".into()));
            };
            let ty = ts(&arg.ty).map_err(&at)?;
            args.push((camel(&ident.ident.to_string()), ty));
        }
        let output = match &f.sig.output {
            ReturnType::Default => unit(),
            ReturnType::Type(_, ty) => ts(ok_type(ty)).map_err(&at)?,
        };
        commands.push(Command {
            module: module.to_owned(),
            name,
            docs: docs(&f.attrs),
            args,
            output,
        });
    }
    Ok(commands)
}

fn is_command(attr: &Attribute) -> bool {
    let path = attr.path();
    path.segments.last().is_some_and(|s| s.ident == "command")
        && path.segments.len() == 2
        && path.segments[0].ident == "tauri"
}

fn docs(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => {
                    let line = s.value();
                    Some(line.strip_prefix(' ').map(str::to_owned).unwrap_or(line))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

fn injected(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| INJECTED.iter().any(|i| s.ident == i))
}

fn generics(segment: &syn::PathSegment) -> Vec<&Type> {
    match &segment.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// What a command answers with: `T` of `Result<T, _>` (or of the modules' `Res<T>`);
/// the error always arrives as an `IpcError`.
fn ok_type(ty: &Type) -> &Type {
    match last_segment(ty) {
        Some(s) if s.ident == "Result" || s.ident == "Res" => {
            generics(s).first().copied().unwrap_or(ty)
        }
        _ => ty,
    }
}

fn unit() -> Ts {
    Ts {
        text: "null".into(),
        imports: BTreeSet::new(),
    }
}

/// The TypeScript ts-rs gives the same Rust type.
fn ts(ty: &Type) -> Result<Ts, String> {
    if let Type::Tuple(t) = ty
        && t.elems.is_empty()
    {
        return Ok(unit());
    }
    if let Type::Reference(r) = ty {
        return ts(&r.elem);
    }
    let Some(segment) = last_segment(ty) else {
        return Err("only named types, `Vec`, `Option` and `()` cross IPC".into());
    };
    let inner = generics(segment);
    let name = segment.ident.to_string();
    let plain = |text: &str| Ts {
        text: text.into(),
        imports: BTreeSet::new(),
    };
    Ok(match (name.as_str(), inner.as_slice()) {
        ("Vec", [t]) => {
            let t = ts(t)?;
            let text = if t.text.contains(' ') {
                format!("({})[]", t.text)
            } else {
                format!("{}[]", t.text)
            };
            Ts { text, ..t }
        }
        ("Option", [t]) => {
            let t = ts(t)?;
            Ts {
                text: format!("{} | null", t.text),
                ..t
            }
        }
        ("String" | "str", []) => plain("string"),
        ("bool", []) => plain("boolean"),
        ("i8" | "i16" | "i32" | "u8" | "u16" | "u32" | "f32" | "f64", []) => plain("number"),
        ("i64" | "u64" | "usize" | "isize", []) => {
            return Err(format!(
                "`{name}` is a bigint in ts-rs; wrap it in a ts-rs type that says how it crosses"
            ));
        }
        (_, []) => Ts {
            text: name.clone(),
            imports: BTreeSet::from([name]),
        },
        _ => return Err(format!("`{name}<..>` has no TypeScript form here")),
    })
}

/// Tauri's default renaming of a command's argument names.
fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The body of `commands::handler`: `tauri::generate_handler![module::name, ..]`.
pub fn handler(commands: &[Command]) -> String {
    let paths: Vec<String> = commands
        .iter()
        .map(|c| format!("    {}::{},\n", c.module, c.name))
        .collect();
    format!("tauri::generate_handler![\n{}]\n", paths.concat())
}

/// The main window's capability: listen to the app's events and call each command.
pub fn capability(commands: &[Command]) -> String {
    let mut permissions = vec![
        "core:event:allow-listen".to_owned(),
        "core:event:allow-unlisten".to_owned(),
    ];
    permissions.extend(commands.iter().map(|c| permission(&c.name)));
    let list: Vec<String> = permissions.iter().map(|p| format!("    \"{p}\"")).collect();
    format!(
        "{{\n  \"identifier\": \"default\",\n  \"description\": \"The main window may call Cubicle's own \
         commands and listen to its events; nothing else.\",\n  \"windows\": [\"main\"],\n  \
         \"permissions\": [\n{}\n  ]\n}}\n",
        list.join(",\n")
    )
}

/// The permission `tauri_build` derives for an app command.
pub fn permission(name: &str) -> String {
    format!("allow-{}", name.replace('_', "-"))
}

const TS_HEADER: &str = "\
// Generated by src-tauri/build.rs from the `#[tauri::command]` fns in src-tauri/src/commands/.
// Do not edit: after changing a command, `CUBICLE_BLESS=1 cargo test -p cubicle --lib
// generated` rewrites this file (the same test fails while it is stale).
";

/// `ui/src/ipc/commands.ts`: the `Commands` map (each command's `invoke` arguments and
/// result) and one typed wrapper per command, named in camelCase.
pub fn typescript(commands: &[Command]) -> String {
    let imports: BTreeSet<&String> = commands
        .iter()
        .flat_map(|c| c.args.iter().map(|(_, t)| t).chain([&c.output]))
        .flat_map(|t| &t.imports)
        .collect();
    let mut out = String::from(TS_HEADER);
    out.push_str("import { invoke } from \"@tauri-apps/api/core\";\n");
    for name in imports {
        out.push_str(&format!(
            "import type {{ {name} }} from \"../bindings/{name}\";\n"
        ));
    }
    out.push_str(
        "\n/** Every command by its IPC name: the arguments `invoke` sends and what comes back. */\n\
         export type Commands = {\n",
    );
    for c in commands {
        out.push_str(&format!(
            "  {}: {{ args: {}; output: {} }};\n",
            c.name,
            args_type(c),
            c.output.text
        ));
    }
    out.push_str(
        "};\n\n/** One typed wrapper per command; failures reject with an `IpcError`. */\n\
         export const commands = {\n",
    );
    for c in commands {
        out.push_str(&jsdoc(&c.docs));
        out.push_str(&wrapper(c));
    }
    out.push_str("};\n");
    out
}

fn args_type(c: &Command) -> String {
    if c.args.is_empty() {
        return "Record<string, never>".into();
    }
    let fields: Vec<String> = c
        .args
        .iter()
        .map(|(name, t)| format!("{name}: {}", t.text))
        .collect();
    format!("{{ {} }}", fields.join("; "))
}

fn wrapper(c: &Command) -> String {
    let params: Vec<String> = c
        .args
        .iter()
        .map(|(name, t)| format!("{name}: {}", t.text))
        .collect();
    let names: Vec<&str> = c.args.iter().map(|(name, _)| name.as_str()).collect();
    let payload = if names.is_empty() {
        String::new()
    } else {
        format!(", {{ {} }}", names.join(", "))
    };
    format!(
        "  {}: ({}) => invoke<{}>(\"{}\"{payload}),\n",
        camel(&c.name),
        params.join(", "),
        c.output.text,
        c.name
    )
}

fn jsdoc(lines: &[String]) -> String {
    match lines {
        [] => String::new(),
        [one] => format!("  /** {one} */\n"),
        many => {
            let body: Vec<String> = many
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        "   *\n".to_owned()
                    } else {
                        format!("   * {l}\n")
                    }
                })
                .collect();
            format!("  /**\n{}   */\n", body.concat())
        }
    }
}
