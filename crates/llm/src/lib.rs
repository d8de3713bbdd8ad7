//! Model backends behind one trait. The model-gateway issue fills this crate.
