//! Generates `include/cardgames.h` from `src/ffi/` with cbindgen, writing the
//! file only when its content changes (so a clean build leaves the committed
//! header untouched, and `make header-check` can tell a stale one).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/ffi");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    // The C harness test (tests/c_harnesses.rs) compiles C with the cc crate,
    // which needs the target and host triples that only build scripts see.
    for var in ["TARGET", "HOST"] {
        let value = std::env::var(var).expect("set by cargo for build scripts");
        println!("cargo:rustc-env=CARDGAMES_BUILD_{var}={value}");
    }
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let bindings = cbindgen::Builder::new()
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen can read the crate");
    let path = crate_dir.join("include/cardgames.h");
    // `write_to_file` leaves the file alone when the content is the same.
    bindings.write_to_file(path);
}
