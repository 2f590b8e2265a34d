//! The points engine (DESIGN.md section 6).

pub mod rules;
