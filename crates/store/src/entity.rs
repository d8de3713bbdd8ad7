//! One entity per table. Generated-entity style: plain data, no logic.

pub mod app_setting;
pub mod chat;
pub mod chat_member;
pub mod chat_message;
pub mod chat_summary;
pub mod company;
pub mod cost_ledger;
pub mod decision;
pub mod department;
pub mod employee;
pub mod employee_state;
pub mod mail;
pub mod meeting;
pub mod memory;
pub mod model_price;
pub mod model_route;
pub mod moderator_note;
pub mod provider;
pub mod relationship;
pub mod requirement;
pub mod role_template;
pub mod secretary_action;
pub mod secretary_message;
pub mod task;
pub mod team;
pub mod thought;
