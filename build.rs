//! Rebuild when a migration is added: the SQL files are embedded with include_dir.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
