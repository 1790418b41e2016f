//! coffer keeps the configuration of AI coding agents in a declared state.
//!
//! The pipeline (DESIGN.md): a desired file is loaded ([`desired`]), checked
//! against the agent registry and compiled into resources and claims
//! ([`facets`], [`registry`], [`resource`]), reconciled with the real files
//! and the provenance record into a plan ([`engine`], [`formats`], [`state`]),
//! and applied through one narrow file-system door ([`fsys`]). The hook
//! program the installed entries run lives in [`hook`]; it depends on none
//! of the above so that it starts fast.

pub mod cli;
pub mod desired;
pub mod diagnostic;
pub mod engine;
pub mod env;
pub mod error;
pub mod facets;
pub mod formats;
pub mod fsys;
pub mod hook;
pub mod import;
pub mod ownership;
pub mod registry;
pub mod resource;
pub mod state;
