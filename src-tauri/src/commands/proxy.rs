//! A person's proxy in the app: its card, the person's conversation with it, what it wrote
//! in their name, a request, and a correction. Signed in to a server as a person, only
//! their own proxy answers (core refuses the others with `not_your_decision`).

use cubicle_core::chat::ChatMessageDto;
use cubicle_core::people::PersonRef;
use cubicle_core::proxy::{
    CorrectProxyLine, ProxyCard, ProxyLineDto, ProxyTurn, SayToProxy, WrittenLine,
};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// The proxy's agent card: whom it represents, what it answers for, may and may not do.
#[tauri::command]
pub async fn proxy_card(core: State<'_, AppCore>, input: PersonRef) -> Res<ProxyCard> {
    Ok(core.proxies.card(input.person_id).await?)
}

/// The person's conversation with their proxy, oldest first.
#[tauri::command]
pub async fn proxy_conversation(
    core: State<'_, AppCore>,
    input: PersonRef,
) -> Res<Vec<ProxyLineDto>> {
    Ok(core.proxies.conversation(input.person_id).await?)
}

/// What the proxy wrote in its person's name, newest first, each with its correction if any.
#[tauri::command]
pub async fn proxy_written(core: State<'_, AppCore>, input: PersonRef) -> Res<Vec<WrittenLine>> {
    Ok(core.proxies.written_lines(input.person_id).await?)
}

/// The person tells their proxy what they want; the reply says what it did.
#[tauri::command]
pub async fn say_to_proxy(core: State<'_, AppCore>, input: SayToProxy) -> Res<ProxyTurn> {
    Ok(core.proxies.say(input).await?)
}

/// The person replaces a line their proxy wrote with their own words.
#[tauri::command]
pub async fn correct_proxy_line(
    core: State<'_, AppCore>,
    input: CorrectProxyLine,
) -> Res<ChatMessageDto> {
    Ok(core.proxies.correct(input).await?)
}
