use cubicle_core::app::ConnectionDto;
use cubicle_core::gateway::Purpose;
use cubicle_core::org::{CompanyDto, SetBudget};
use cubicle_core::providers::ThoughtModelDto;
use cubicle_core::providers::{
    BuiltinStatus, PresetDto, PriceDto, ProviderDto, ProviderRef, RouteDto, SaveProvider,
    SetBuiltinModel, SetPrice, SetProviderKey, SetRoute, SpendReport, TestProvider, TestResult,
};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[tauri::command]
pub fn list_presets(core: State<'_, AppCore>) -> Vec<PresetDto> {
    core.providers.list_presets()
}

#[tauri::command]
pub async fn list_providers(core: State<'_, AppCore>) -> Res<Vec<ProviderDto>> {
    Ok(core.providers.list().await?)
}

#[tauri::command]
pub async fn save_provider(core: State<'_, AppCore>, input: SaveProvider) -> Res<ProviderDto> {
    Ok(core.providers.save(input).await?)
}

#[tauri::command]
pub async fn delete_provider(core: State<'_, AppCore>, input: ProviderRef) -> Res<()> {
    Ok(core.providers.delete(&input.provider_id).await?)
}

/// The one place an API key crosses IPC, towards the backend only. Callers pass it straight from
/// the input element: never keep it in React state, a query/mutation cache, or a log.
#[tauri::command]
pub async fn set_provider_key(core: State<'_, AppCore>, input: SetProviderKey) -> Res<ProviderDto> {
    Ok(core.providers.set_key(input).await?)
}

#[tauri::command]
pub async fn delete_provider_key(core: State<'_, AppCore>, input: ProviderRef) -> Res<ProviderDto> {
    Ok(core.providers.delete_key(&input.provider_id).await?)
}

#[tauri::command]
pub async fn test_provider(core: State<'_, AppCore>, input: TestProvider) -> Res<TestResult> {
    Ok(core.providers.test(&core.gateway, input).await)
}

#[tauri::command]
pub async fn get_routes(core: State<'_, AppCore>) -> Res<Vec<RouteDto>> {
    Ok(core.providers.routes().await?)
}

#[tauri::command]
pub async fn set_route(core: State<'_, AppCore>, input: SetRoute) -> Res<RouteDto> {
    Ok(core.providers.set_route(input).await?)
}

/// The purposes on the built-in model now that the provider could take over (what the
/// add-provider dialog offers).
#[tauri::command]
pub async fn list_builtin_purposes(
    core: State<'_, AppCore>,
    input: ProviderRef,
) -> Res<Vec<Purpose>> {
    Ok(core.providers.builtin_purposes(&input.provider_id).await?)
}

/// After adding a provider: route every purpose still on the built-in model to it (its
/// default model). Returns the routes that changed.
#[tauri::command]
pub async fn use_provider_for_builtin_purposes(
    core: State<'_, AppCore>,
    input: ProviderRef,
) -> Res<Vec<RouteDto>> {
    Ok(core
        .providers
        .use_for_builtin_purposes(&input.provider_id)
        .await?)
}

#[tauri::command]
pub async fn list_prices(core: State<'_, AppCore>) -> Res<Vec<PriceDto>> {
    Ok(core.providers.prices().await?)
}

#[tauri::command]
pub async fn set_price(core: State<'_, AppCore>, input: SetPrice) -> Res<PriceDto> {
    Ok(core.providers.set_price(input).await?)
}

#[tauri::command]
pub async fn set_budget(core: State<'_, AppCore>, input: SetBudget) -> Res<CompanyDto> {
    Ok(core.org.set_budget(input).await?)
}

#[tauri::command]
pub async fn get_spend(core: State<'_, AppCore>) -> Res<SpendReport> {
    Ok(core.providers.spend().await?)
}

/// Whether the company lives on a shared server (`host:port/database`, never credentials), for
/// the shell's badge.
#[tauri::command]
pub fn connection(conn: State<'_, crate::Connection>) -> ConnectionDto {
    conn.0.clone()
}

#[tauri::command]
pub async fn builtin_status(core: State<'_, AppCore>) -> Res<BuiltinStatus> {
    Ok(core.providers.builtin_status().await)
}

/// Which model answers the employees' thoughts: the company's route, and who is on the bundled
/// model.
#[tauri::command]
pub async fn thought_model(core: State<'_, AppCore>) -> Res<ThoughtModelDto> {
    Ok(core.providers.thought_model().await?)
}

/// Another GGUF file for the built-in model; `path: null` goes back to the bundled one.
#[tauri::command]
pub async fn set_builtin_model(
    core: State<'_, AppCore>,
    input: SetBuiltinModel,
) -> Res<BuiltinStatus> {
    Ok(core.providers.set_builtin_model(input).await?)
}
