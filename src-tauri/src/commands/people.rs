use cubicle_core::people::{DeskUser, NewPerson, PersonDto, PersonRef, UpdatePerson, UseDeskAs};
use cubicle_core::{AppCore, ErrorCode, IpcError};
use tauri::State;

use crate::desk::Desk;

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

/// Who uses this desktop: the signed-in person, whoever said so, or the boss.
#[tauri::command]
pub fn desk_user(desk: State<'_, Desk>) -> DeskUser {
    desk.user()
}

/// "I am …" on a computer the people share (`None`: the boss). Refused when signed in to a
/// company server as a person, and for someone who is not in the company.
#[tauri::command]
pub async fn use_desk_as(
    core: State<'_, AppCore>,
    desk: State<'_, Desk>,
    input: UseDeskAs,
) -> Res<DeskUser> {
    if let Some(id) = input.person_id {
        core.people.get(id).await?;
    }
    if !desk.choose(input.person_id) {
        return Err(IpcError::new(
            ErrorCode::NotYourDecision,
            "this desktop is signed in to the company server as a person: the sign-in says who this is",
        ));
    }
    Ok(desk.user())
}
