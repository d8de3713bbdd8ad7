//! Who uses this desktop (SPEC §12). Signed in to a company server as a person's own
//! role, the database says who: that person, for good. Otherwise the people may share
//! one computer (a company in a SQLite file): the app asks once per start who is using
//! it, and the queue, the decisions and the proxy are that person's until someone else
//! says it is them. Not a log-in — anyone at the keyboard can say they are the boss; a
//! company that needs the difference enforced runs on a server (docs/people.md).

use std::sync::Mutex;

use cubicle_core::approvals::Decider;
use cubicle_core::notify::DeskWatch;
use cubicle_core::people::DeskUser;
use tokio::sync::watch;

/// The desktop's user: fixed by the sign-in, or chosen (`None` until the app asked).
/// The tray's count and the notifications follow it ([`Desk::watch`]).
pub struct Desk {
    signed_in: Option<i32>,
    chosen: Mutex<Option<Option<i32>>>,
    deciders: watch::Sender<Decider>,
}

impl Desk {
    pub fn new(signed_in: Option<i32>) -> Self {
        let deciders = watch::Sender::new(Decider::of(signed_in));
        Self {
            signed_in,
            chosen: Mutex::new(None),
            deciders,
        }
    }

    /// In whose name this desktop decides, now and each time it changes hands.
    pub fn watch(&self) -> DeskWatch {
        self.deciders.subscribe()
    }

    fn chosen(&self) -> Option<Option<i32>> {
        *self
            .chosen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn user(&self) -> DeskUser {
        let chosen = self.chosen();
        DeskUser {
            person_id: self.signed_in.or(chosen.flatten()),
            can_change: self.signed_in.is_none(),
            chosen: self.signed_in.is_some() || chosen.is_some(),
        }
    }

    /// In whose name this desktop decides.
    pub fn decider(&self) -> Decider {
        *self.deciders.borrow()
    }

    /// "I am `person`" (`None`: the boss); false when the sign-in fixes who this is.
    pub fn choose(&self, person: Option<i32>) -> bool {
        if self.signed_in.is_some() {
            return false;
        }
        *self
            .chosen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(person);
        // Told only when it changes: the same person saying it again withdraws nothing.
        self.deciders.send_if_modified(|d| {
            let next = Decider::of(person);
            std::mem::replace(d, next) != next
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_in_person_is_fixed_and_a_shared_desk_is_whoever_said_so() {
        let server = Desk::new(Some(3));
        assert!(
            !server.choose(None),
            "nobody becomes the boss on Lin's sign-in"
        );
        assert_eq!(
            server.user(),
            DeskUser {
                person_id: Some(3),
                can_change: false,
                chosen: true
            }
        );
        assert_eq!(*server.watch().borrow(), Decider::Person { person_id: 3 });
        let shared = Desk::new(None);
        let mut hands = shared.watch();
        assert!(!shared.user().chosen, "not asked yet");
        assert_eq!(shared.decider(), Decider::Boss);
        assert!(shared.choose(None));
        assert!(
            !hands.has_changed().unwrap_or(true),
            "the boss saying it is them changes no hands"
        );
        assert!(shared.choose(Some(7)));
        assert_eq!(shared.decider(), Decider::Person { person_id: 7 });
        assert!(hands.has_changed().unwrap_or(false));
        assert_eq!(*hands.borrow_and_update(), Decider::Person { person_id: 7 });
        assert!(shared.choose(None));
        assert_eq!(*hands.borrow_and_update(), Decider::Boss);
        assert_eq!(shared.user().person_id, None);
        assert!(shared.user().chosen);
    }
}
