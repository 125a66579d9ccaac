//! Rebuild when the default theme changes: it is embedded in the binary (src/theme.rs), and the
//! macro that embeds it cannot tell Cargo which files it read.
fn main() {
    println!("cargo:rerun-if-changed=../../themes/default");
}
