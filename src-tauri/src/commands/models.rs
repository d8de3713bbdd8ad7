//! Local models: the catalogue, downloads, and model servers running on this machine.

use cubicle_core::models::{
    AddLocalServer, LocalModelDto, LocalModelRef, LocalServerDto, UseLocalModelFor,
};
use cubicle_core::providers::{BuiltinStatus, ProviderDto, RouteDto};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[tauri::command]
pub async fn list_local_models(core: State<'_, AppCore>) -> Res<Vec<LocalModelDto>> {
    Ok(core.models.list().await)
}

/// Starts or resumes a download (a running or installed model is left as it is); progress
/// arrives as `local_model_changed` events.
#[tauri::command]
pub async fn start_model_download(
    core: State<'_, AppCore>,
    input: LocalModelRef,
) -> Res<LocalModelDto> {
    Ok(core.models.start(&input.model_id).await?)
}

/// Stops a running download and keeps its bytes for a resume.
#[tauri::command]
pub async fn pause_model_download(
    core: State<'_, AppCore>,
    input: LocalModelRef,
) -> Res<LocalModelDto> {
    Ok(core.models.pause(&input.model_id).await?)
}

/// Stops a download and deletes its partial file.
#[tauri::command]
pub async fn cancel_model_download(
    core: State<'_, AppCore>,
    input: LocalModelRef,
) -> Res<LocalModelDto> {
    Ok(core.models.cancel(&input.model_id).await?)
}

/// An installed (verified) model becomes the built-in model.
#[tauri::command]
pub async fn use_local_model(core: State<'_, AppCore>, input: LocalModelRef) -> Res<BuiltinStatus> {
    Ok(core.models.use_as_builtin(&input.model_id).await?)
}

/// One kind of work (employees' thoughts) to an installed model; the built-in model keeps the rest.
#[tauri::command]
pub async fn use_local_model_for(
    core: State<'_, AppCore>,
    input: UseLocalModelFor,
) -> Res<RouteDto> {
    Ok(core.models.use_for(&input.model_id, input.purpose).await?)
}

/// Ollama, LM Studio or llama.cpp servers answering on their default ports.
#[tauri::command]
pub async fn detect_local_servers(core: State<'_, AppCore>) -> Res<Vec<LocalServerDto>> {
    Ok(core.models.detect_servers().await?)
}

#[tauri::command]
pub async fn add_local_server(core: State<'_, AppCore>, input: AddLocalServer) -> Res<ProviderDto> {
    Ok(core.models.add_server(input).await?)
}
