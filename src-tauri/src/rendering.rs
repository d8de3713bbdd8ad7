//! How WebKitGTK draws the window when the computer has no GPU.
//!
//! WebKitGTK composites the page's layers with OpenGL and paints them with Skia on the GPU
//! whenever OpenGL is available — and with no GPU (no DRM render node: a virtual machine, a
//! container, a remote desktop, Xvfb) OpenGL is Mesa's software rasterizer, which compiles
//! every new kind of drawing (a blurred shadow, a gradient, a rounded clip) into machine
//! code with LLVM. Measured on the first-run screen under Xvfb (PSS of the app and its
//! WebKit processes, debug build): ~406 MB compositing and painting that way, ~379 MB
//! painting with Skia on the CPU but still compositing with OpenGL, ~289 MB with neither —
//! the page painted on the CPU into shared memory and shown as it is, which is what such a
//! machine does in the end anyway (release build: ~334 MB → ~264 MB). So with no GPU
//! Cubicle turns WebKit's compositing mode off (`WEBKIT_DISABLE_COMPOSITING_MODE`) and asks
//! for CPU painting too (`WEBKIT_SKIA_ENABLE_CPU_RENDERING`, what WebKit uses should it
//! ever composite). What is lost: effects that only a composited layer draws (the 2-pixel
//! `backdrop-blur` behind a dialog or a graph's legend: the translucent colour stays). With
//! a GPU WebKit's default stands; if the user set any of these switches, none is touched.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::OnceLock;

/// WebKitGTK's switch (2.46+): any value but `0` paints with Skia on the CPU.
const CPU_RENDERING: &str = "WEBKIT_SKIA_ENABLE_CPU_RENDERING";
/// WebKitGTK's switches for compositing the page's layers with OpenGL: never, or always.
const NO_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
const FORCE_COMPOSITING: &str = "WEBKIT_FORCE_COMPOSITING_MODE";
/// The switches a user may have set to choose how WebKit draws: then none is touched.
const USER_SWITCHES: [&str; 3] = [CPU_RENDERING, NO_COMPOSITING, FORCE_COMPOSITING];
/// Mesa's switch that forces its software rasterizer even where a GPU exists.
const SOFTWARE_GL: &str = "LIBGL_ALWAYS_SOFTWARE";

/// What the machine offers the web view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Machine {
    /// The user chose how WebKit draws (one of [`USER_SWITCHES`] is set).
    renderer_chosen: bool,
    /// A DRM render node exists (`/dev/dri/renderD*`): OpenGL can reach a GPU.
    gpu: bool,
    /// Mesa is told to rasterize in software anyway.
    software_gl_forced: bool,
}

impl Machine {
    /// This process's environment and `/dev/dri`.
    fn here() -> Self {
        Machine {
            renderer_chosen: user_chose(|v| std::env::var_os(v).is_some()),
            gpu: has_render_node(Path::new("/dev/dri")),
            software_gl_forced: std::env::var_os(SOFTWARE_GL).is_some_and(|v| is_truthy(&v)),
        }
    }

    /// Whether to ask WebKit to paint on the CPU, without compositing.
    fn paint_on_cpu(self) -> bool {
        !self.renderer_chosen && (!self.gpu || self.software_gl_forced)
    }
}

/// Whether any of [`USER_SWITCHES`] is set, per `is_set`.
fn user_chose(is_set: impl Fn(&str) -> bool) -> bool {
    USER_SWITCHES.iter().any(|v| is_set(v))
}

fn is_truthy(v: &OsStr) -> bool {
    !matches!(v.to_str().map(str::trim), Some("" | "0" | "false"))
}

fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

static CHOSEN: OnceLock<Machine> = OnceLock::new();

/// Call at the top of `main`, before any thread starts and before the first window:
/// WebKit's web process inherits this environment when it is spawned.
#[allow(unsafe_code)]
pub fn choose_renderer() {
    // WebKitGTK is the web view on Linux only; elsewhere there is nothing to choose.
    if !cfg!(target_os = "linux") {
        return;
    }
    let machine = *CHOSEN.get_or_init(Machine::here);
    if machine.paint_on_cpu() {
        // SAFETY: called first thing in `main` (see `main.rs`), while the process has one
        // thread: nothing can read the environment concurrently.
        unsafe {
            std::env::set_var(NO_COMPOSITING, "1");
            std::env::set_var(CPU_RENDERING, "1");
        }
    }
}

/// Logs what [`choose_renderer`] found and chose (once logging is up).
pub(crate) fn log_choice() {
    if let Some(m) = CHOSEN.get() {
        tracing::info!(
            gpu = m.gpu,
            software_gl_forced = m.software_gl_forced,
            renderer_chosen_by_user = m.renderer_chosen,
            cpu_painting_without_compositing = m.paint_on_cpu(),
            "web view rendering"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(renderer_chosen: bool, gpu: bool, software_gl_forced: bool) -> Machine {
        Machine {
            renderer_chosen,
            gpu,
            software_gl_forced,
        }
    }

    #[test]
    fn without_a_gpu_or_with_software_gl_forced_the_window_is_painted_on_the_cpu() {
        assert!(machine(false, false, false).paint_on_cpu());
        assert!(machine(false, true, true).paint_on_cpu());
        assert!(
            !machine(false, true, false).paint_on_cpu(),
            "a GPU keeps WebKit's default"
        );
    }

    #[test]
    fn a_renderer_the_user_chose_is_left_alone() {
        assert!(!machine(true, false, false).paint_on_cpu());
        assert!(!machine(true, true, true).paint_on_cpu());
    }

    #[test]
    fn any_of_webkits_drawing_switches_set_by_the_user_is_a_choice() {
        assert!(!user_chose(|_| false));
        for switch in [
            "WEBKIT_SKIA_ENABLE_CPU_RENDERING",
            "WEBKIT_DISABLE_COMPOSITING_MODE",
            "WEBKIT_FORCE_COMPOSITING_MODE",
        ] {
            assert!(user_chose(|v| v == switch), "{switch}");
        }
        assert!(
            !user_chose(|v| v == "LIBGL_ALWAYS_SOFTWARE"),
            "Mesa's switch is no choice of WebKit's drawing"
        );
    }

    #[test]
    fn a_render_node_is_found_among_the_dri_devices() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(!has_render_node(dir.path()), "empty");
        assert!(
            !has_render_node(&dir.path().join("missing")),
            "no /dev/dri at all"
        );
        std::fs::write(dir.path().join("card0"), "").expect("card0");
        assert!(
            !has_render_node(dir.path()),
            "a display node alone is no render node"
        );
        std::fs::write(dir.path().join("renderD128"), "").expect("renderD128");
        assert!(has_render_node(dir.path()));
    }

    #[test]
    fn software_gl_is_forced_by_any_value_but_an_empty_zero_or_false_one() {
        for (v, forced) in [
            ("1", true),
            ("true", true),
            ("yes", true),
            ("0", false),
            ("false", false),
            ("", false),
        ] {
            assert_eq!(is_truthy(OsStr::new(v)), forced, "{v:?}");
        }
    }
}
