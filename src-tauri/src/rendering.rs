//! How WebKitGTK draws the window when the computer has no GPU.
//!
//! WebKitGTK paints with Skia on the GPU whenever OpenGL is available — and with no GPU
//! (no DRM render node: a virtual machine, a container, a remote desktop, Xvfb) OpenGL is
//! Mesa's software rasterizer, which compiles every new kind of drawing (a blurred shadow,
//! a gradient, a rounded clip) into machine code with LLVM. Measured on the first-run
//! screen under Xvfb: the web process held ~230 MB PSS drawing that way and ~200 MB drawing
//! with Skia on the CPU, which is what such a machine has anyway. So with no GPU Cubicle
//! asks WebKit for CPU rendering; with one, WebKit's default stands. A value the user set
//! themselves (`0` forces the GPU path) is left alone.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::OnceLock;

/// WebKitGTK's switch (2.46+): any value but `0` paints with Skia on the CPU.
const CPU_RENDERING: &str = "WEBKIT_SKIA_ENABLE_CPU_RENDERING";
/// Mesa's switch that forces its software rasterizer even where a GPU exists.
const SOFTWARE_GL: &str = "LIBGL_ALWAYS_SOFTWARE";

/// What the machine offers the web view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Machine {
    /// The user chose a renderer (`WEBKIT_SKIA_ENABLE_CPU_RENDERING` is set).
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
            renderer_chosen: std::env::var_os(CPU_RENDERING).is_some(),
            gpu: has_render_node(Path::new("/dev/dri")),
            software_gl_forced: std::env::var_os(SOFTWARE_GL).is_some_and(|v| is_truthy(&v)),
        }
    }

    /// Whether to ask WebKit to paint on the CPU.
    fn paint_on_cpu(self) -> bool {
        !self.renderer_chosen && (!self.gpu || self.software_gl_forced)
    }
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
        unsafe { std::env::set_var(CPU_RENDERING, "1") };
    }
}

/// Logs what [`choose_renderer`] found and chose (once logging is up).
pub(crate) fn log_choice() {
    if let Some(m) = CHOSEN.get() {
        tracing::info!(
            gpu = m.gpu,
            software_gl_forced = m.software_gl_forced,
            renderer_chosen_by_user = m.renderer_chosen,
            cpu_rendering = m.paint_on_cpu(),
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
