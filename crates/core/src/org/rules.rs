//! The org rules that need no database: names, the department tree, the reporting line.

use std::collections::{HashMap, HashSet};

use super::OrgError;

/// Longest department or employee name we accept (characters, after trimming).
pub const MAX_NAME_CHARS: usize = 80;

/// Trims `raw` and checks it can be a name.
pub fn clean_name(raw: &str, what: &'static str) -> Result<String, OrgError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(OrgError::InvalidInput(format!("{what} must not be empty")));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(OrgError::InvalidInput(format!(
            "{what} is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(OrgError::InvalidInput(format!(
            "{what} must not contain control characters"
        )));
    }
    Ok(name.to_owned())
}

/// Sibling names are unique regardless of case ("Sales" and "sales" clash).
pub fn names_clash(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// `parents` maps each department to its parent. True when putting `dept` under
/// `new_parent` would make `dept` its own ancestor.
pub fn would_create_cycle(
    parents: &HashMap<i32, Option<i32>>,
    dept: i32,
    new_parent: Option<i32>,
) -> bool {
    let mut cursor = new_parent;
    let mut seen = HashSet::new();
    while let Some(id) = cursor {
        if id == dept || !seen.insert(id) {
            return true;
        }
        cursor = parents.get(&id).copied().flatten();
    }
    false
}

/// `dept` and every department below it.
pub fn subtree(parents: &HashMap<i32, Option<i32>>, dept: i32) -> HashSet<i32> {
    let mut out = HashSet::from([dept]);
    loop {
        let before = out.len();
        for (&id, &parent) in parents {
            if parent.is_some_and(|p| out.contains(&p)) {
                out.insert(id);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// `managers` maps each current employee to their manager. True when `employee`
/// reporting to `manager` would close a loop in the reporting line.
pub fn would_create_reporting_loop(
    managers: &HashMap<i32, Option<i32>>,
    employee: i32,
    manager: i32,
) -> bool {
    let mut cursor = Some(manager);
    let mut seen = HashSet::new();
    while let Some(id) = cursor {
        if id == employee || !seen.insert(id) {
            return true;
        }
        cursor = managers.get(&id).copied().flatten();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn tree() -> HashMap<i32, Option<i32>> {
        // 1 Company-wide ─┬─ 2 Engineering ── 4 Frontend
        //                 └─ 3 Sales
        // 5 Legal (top level)
        HashMap::from([
            (1, None),
            (2, Some(1)),
            (3, Some(1)),
            (4, Some(2)),
            (5, None),
        ])
    }

    #[test]
    fn empty_and_overlong_names_are_rejected() {
        assert_eq!(
            clean_name("   ", "name").map_err(|e| e.code()),
            Err(ErrorCode::InvalidInput)
        );
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            clean_name(&long, "name").map_err(|e| e.code()),
            Err(ErrorCode::InvalidInput)
        );
        assert_eq!(
            clean_name("a\u{7}b", "name").map_err(|e| e.code()),
            Err(ErrorCode::InvalidInput)
        );
        assert_eq!(
            clean_name("  研发部 ", "name").ok().as_deref(),
            Some("研发部")
        );
    }

    #[test]
    fn sibling_names_clash_case_insensitively() {
        assert!(names_clash("Sales", " sales "));
        assert!(!names_clash("Sales", "Sales Ops"));
    }

    #[test]
    fn moving_under_own_descendant_is_a_cycle() {
        let t = tree();
        assert!(would_create_cycle(&t, 2, Some(4)));
        assert!(would_create_cycle(&t, 1, Some(4)));
        assert!(would_create_cycle(&t, 2, Some(2)));
    }

    #[test]
    fn moving_elsewhere_is_not_a_cycle() {
        let t = tree();
        assert!(!would_create_cycle(&t, 4, Some(3)));
        assert!(!would_create_cycle(&t, 4, None));
        assert!(!would_create_cycle(&t, 5, Some(2)));
    }

    #[test]
    fn a_corrupt_loop_in_the_data_is_reported_not_followed_forever() {
        let t = HashMap::from([(1, Some(2)), (2, Some(1)), (3, None)]);
        assert!(would_create_cycle(&t, 3, Some(1)));
    }

    #[test]
    fn subtree_contains_all_descendants() {
        let t = tree();
        assert_eq!(subtree(&t, 1), HashSet::from([1, 2, 3, 4]));
        assert_eq!(subtree(&t, 4), HashSet::from([4]));
    }

    #[test]
    fn reporting_loops_are_detected() {
        // 10 ← 11 ← 12 (12 reports to 11, 11 to 10)
        let m = HashMap::from([(10, None), (11, Some(10)), (12, Some(11))]);
        assert!(would_create_reporting_loop(&m, 10, 12));
        assert!(would_create_reporting_loop(&m, 10, 10));
        assert!(!would_create_reporting_loop(&m, 12, 10));
    }
}
