//! The engine's tests, through its public face, in one binary (the crate is linked once).

mod common;

mod api;
mod brute_force;
mod codes;
mod dense;
mod files;
mod format;
mod frontier;
mod games;
mod heap_library;
mod hostile;
mod kernels;
mod limits;
mod loopy;
mod play_steps;
mod products;
mod properties;
mod records;
mod streamed_tables;
mod sweep;
mod theory;
mod thermography;
mod windows;
