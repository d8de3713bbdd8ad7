//! build.rs's reader on sample sources: a new fn is everything a command needs, and a
//! command the generator cannot type fails the build with a message that names it.

use crate::commands_list::{capability, handler, parse, typescript};

const SAMPLE: &str = r#"
use cubicle_core::{AppCore, IpcError};
type Res<T> = Result<T, IpcError>;

/// The boss's wish list.
///
/// Newest first.
#[tauri::command]
pub async fn list_wishes(core: State<'_, AppCore>, input: WishFilter) -> Res<Vec<Option<WishDto>>> {
    Ok(core.wishes.list(input).await?)
}

#[tauri::command]
pub fn wish_count<R: Runtime>(app: AppHandle<R>, file_name: String, urgent: bool) -> u32 {
    0
}

#[tauri::command]
pub async fn forget_wishes(core: State<'_, AppCore>) -> Result<(), IpcError> {
    Ok(())
}

pub fn not_a_command() {}
"#;

#[test]
fn one_fn_gives_the_handler_the_capability_and_the_typed_wrapper() {
    let list = parse("wishes", SAMPLE).expect("parse");
    let names: Vec<&str> = list.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["list_wishes", "wish_count", "forget_wishes"]);

    let h = handler(&list);
    assert!(h.starts_with("tauri::generate_handler!["), "{h}");
    assert!(h.contains("wishes::list_wishes,") && h.contains("wishes::forget_wishes,"));

    let cap: serde_json::Value = serde_json::from_str(&capability(&list)).expect("json");
    assert_eq!(
        cap["permissions"],
        serde_json::json!([
            "core:event:allow-listen",
            "core:event:allow-unlisten",
            "allow-list-wishes",
            "allow-wish-count",
            "allow-forget-wishes"
        ])
    );
    assert_eq!(cap["windows"], serde_json::json!(["main"]));

    let ts = typescript(&list);
    assert!(
        ts.contains("import type { WishDto } from \"../bindings/WishDto\";"),
        "{ts}"
    );
    assert!(ts.contains("import type { WishFilter } from \"../bindings/WishFilter\";"));
    assert!(
        !ts.contains("AppCore") && !ts.contains("AppHandle"),
        "injected args stay out"
    );
    assert!(
        ts.contains("  list_wishes: { args: { input: WishFilter }; output: (WishDto | null)[] };")
    );
    assert!(ts.contains(
        "  listWishes: (input: WishFilter) => invoke<(WishDto | null)[]>(\"list_wishes\", { input }),"
    ));
    assert!(
        ts.contains("   * The boss's wish list.\n   *\n   * Newest first.\n"),
        "{ts}"
    );
    assert!(ts.contains(
        "  wishCount: (fileName: string, urgent: boolean) => invoke<number>(\"wish_count\", { fileName, urgent }),"
    ));
    assert!(ts.contains("  forget_wishes: { args: Record<string, never>; output: null };"));
    assert!(ts.contains("  forgetWishes: () => invoke<null>(\"forget_wishes\"),"));
}

#[test]
fn a_command_the_generator_cannot_type_is_refused_by_name() {
    let err = |src: &str| parse("wishes", src).expect_err("refused");
    let e = err("#[tauri::command]\npub fn big(n: i64) -> () {}");
    assert!(e.contains("wishes.rs, big") && e.contains("bigint"), "{e}");
    let e = err("#[tauri::command]\nfn hidden() {}");
    assert!(e.contains("hidden") && e.contains("pub"), "{e}");
    let e = err("#[tauri::command(rename_all = \"snake_case\")]\npub fn snake(a_b: bool) {}");
    assert!(e.contains("snake") && e.contains("options"), "{e}");
    let e = err("#[tauri::command]\npub fn pair(p: (i32, i32)) {}");
    assert!(e.contains("pair"), "{e}");
    let e = err("#[tauri::command]\npub fn map(m: HashMap<String, u8>) {}");
    assert!(e.contains("HashMap"), "{e}");
    let e = err("fn broken(");
    assert!(e.contains("wishes.rs"), "{e}");
}
