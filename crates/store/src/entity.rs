//! One entity per table. Generated-entity style: plain data, no logic.

pub mod company;
pub mod department;
pub mod employee;
pub mod role_template;
pub mod team;
