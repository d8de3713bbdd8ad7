//! (issue 5: being written)
