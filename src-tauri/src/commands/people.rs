use cubicle_core::people::{NewPerson, PersonDto, PersonRef, UpdatePerson};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// Everyone besides the boss, with the departments and employees each answers for.
#[tauri::command]
pub async fn list_people(core: State<'_, AppCore>) -> Res<Vec<PersonDto>> {
    Ok(core.people.list().await?)
}

/// Invites a person with their role, language, approval policy and duties.
#[tauri::command]
pub async fn invite_person(core: State<'_, AppCore>, input: NewPerson) -> Res<PersonDto> {
    Ok(core.people.invite(input).await?)
}

/// Changes a person's role, language, policy or duties (what is not given stays).
#[tauri::command]
pub async fn update_person(core: State<'_, AppCore>, input: UpdatePerson) -> Res<PersonDto> {
    Ok(core.people.update(input).await?)
}

/// Removes a person; what they answered for goes back up the tree.
#[tauri::command]
pub async fn remove_person(core: State<'_, AppCore>, input: PersonRef) -> Res<()> {
    Ok(core.people.remove(input.person_id).await?)
}
