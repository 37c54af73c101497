//! The server side of Coup: [`arbiter`], tournaments of external bot
//! commands (or built-in strategies) under the arbiter's rules.

pub mod arbiter;
