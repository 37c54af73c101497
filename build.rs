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
    // The shared library's SONAME: `libcardgames.so.<major>` (0 while the
    // major version is 0), so programs linked to it find the installed
    // version link (see `make install`).
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("set by cargo");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcardgames.so.{major}");
    }
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable and valid");
    let version =
        |part: &str| std::env::var(format!("CARGO_PKG_VERSION_{part}")).expect("set by cargo");
    let macros = format!(
        "/* The version of this header; cg_version() gives the library's. */\n\
         #define CG_VERSION_MAJOR {}\n#define CG_VERSION_MINOR {}\n#define CG_VERSION_PATCH {}\n\
         #define CG_VERSION_STRING \"{}\"\n\n\
         /* An opaque deck: a singly linked list of cards, top first. */\n\
         typedef struct cg_deck cg_deck;\n",
        version("MAJOR"),
        version("MINOR"),
        version("PATCH"),
        std::env::var("CARGO_PKG_VERSION").expect("set by cargo"),
    );
    let bindings = cbindgen::Builder::new()
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .with_config(config)
        .with_after_include(macros)
        .generate()
        .expect("cbindgen can read the crate");
    let mut text = Vec::new();
    bindings.write(&mut text);
    let text = c89_enums(&String::from_utf8(text).expect("cbindgen writes UTF-8"));
    let path = crate_dir.join("include/cardgames.h");
    // Written only when it changes, so the committed header's time stamp
    // (and `make header-check`) see only real changes.
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&path, text).expect("include/cardgames.h is writable");
    }
}

/// Makes cbindgen's output C89-clean: cbindgen ends every enumerator with a
/// comma (C89 and C++98 allow none after the last one), so the comma of a
/// line followed by a closing line (`}` or `} name;`) goes; and its
/// `#endif // __cplusplus` style comments become `/* */` ones.
fn c89_enums(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        let closes = lines
            .get(i + 1)
            .is_some_and(|next| next.trim_start().starts_with('}'));
        let trimmed = line.trim_start();
        match (line.strip_suffix(','), line.split_once("//")) {
            (Some(head), _) if closes => out.push_str(head),
            (_, Some((code, comment))) if trimmed.starts_with('#') || trimmed.starts_with('}') => {
                out.push_str(code);
                out.push_str("/* ");
                out.push_str(comment.trim());
                out.push_str(" */");
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}
