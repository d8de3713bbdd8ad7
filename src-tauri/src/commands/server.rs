//! Joining a company on a server from the app (SPEC §12): the sign-in the boss gave a
//! person is checked, kept in this computer's keychain (never on disk, in logs or sent
//! back to the webview), and the app starts again on it.

use cubicle_core::IpcError;
use cubicle_core::secrets::KeyringStore;
use cubicle_core::sign_in::{self, ServerSignIn, SignedIn};
use tauri::{AppHandle, Runtime};

type Res<T> = Result<T, IpcError>;

/// Checks that the sign-in opens the company on its server, as whom, then keeps it in the
/// keychain: the app opens that company when it starts again. `invalid_input` when it is not a
/// server's sign-in, `sign_in_refused` when the server says no (a wrong password, a removed
/// login, no server there), `company_missing` when the server has no company yet.
#[tauri::command]
pub async fn sign_in_to_server(input: ServerSignIn) -> Res<SignedIn> {
    let who = sign_in::save(&KeyringStore, &input.url).await?;
    tracing::info!(server = %who.server, person = ?who.person, "signed in to a company server");
    Ok(who)
}

/// Forgets this computer's sign-in: the app opens this computer's own company when it starts
/// again (the login itself stays until the boss removes it).
#[tauri::command]
pub fn sign_out_of_server() -> Res<()> {
    sign_in::forget(&KeyringStore).map_err(|e| IpcError::from(sign_in::SignInError::from(e)))?;
    tracing::info!("company-server sign-in forgotten");
    Ok(())
}

/// Starts the app again (the engine stops first), to open the company a sign-in says.
#[tauri::command]
pub fn restart_app<R: Runtime>(app: AppHandle<R>) {
    tracing::info!("restarting to open another company");
    app.request_restart();
}
