//! Settings tables: `settings!` declares a configuration type from ONE table of rows
//! `name: type = default, [low, high], "meaning", "the measurement that set it";` and
//! generates from it the struct (each field documented by its row), `Default`, the parser of
//! one `key=value` ([`read`] checks the value) and the `--help` text. The Durak bot's
//! configurations ([`crate::durak::deep::DeepConfig`],
//! [`crate::durak::strategy::HeuristicParams`]) are declared with it.

/// A value a settings table can hold: read from a decimal number within the row's bounds.
pub trait Value: Copy {
    /// Whether the value is a whole number (the text must then have no fraction).
    const INTEGER: bool;
    /// The value of `x` (whole when [`Value::INTEGER`], within the row's bounds).
    fn from_f64(x: f64) -> Self;
}

macro_rules! whole {
    ($($t:ty),*) => {$(
        impl Value for $t {
            const INTEGER: bool = true;
            fn from_f64(x: f64) -> $t {
                x as $t
            }
        }
    )*};
}
whole!(u8, u32, u64, usize, i32);

impl Value for f64 {
    const INTEGER: bool = false;
    fn from_f64(x: f64) -> f64 {
        x
    }
}

/// The value of `text` for the setting `key` whose row allows `low..=high`.
///
/// # Errors
/// A one-line message naming the key when `text` is not a number, not a whole number where
/// one is needed, or out of the row's bounds.
pub fn read<T: Value>(key: &str, text: &str, low: f64, high: f64) -> Result<T, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{key}: not a number: {text:?}"))?;
    if !(low..=high).contains(&x) {
        return Err(format!("{key}={text} is out of range [{low}, {high}]"));
    }
    if T::INTEGER && x.fract() != 0.0 {
        return Err(format!("{key}={text}: a whole number is needed"));
    }
    Ok(T::from_f64(x))
}

/// Declares a settings struct from one table. Each row is
/// `name: type = default, [low, high], "meaning", "the measurement that set it";`. Generates
/// the struct (`Debug, Clone, Copy, PartialEq`, one documented public field per row),
/// `Default` (the defaults column), `KEYS` (the names in table order), `HELP` (one line per
/// row: `name=default  meaning (measurement)`) and `set(key, value)`, which returns
/// `Ok(false)` for a key not in the table.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $key:ident : $ty:ty = $default:expr, [$low:expr, $high:expr],
                $meaning:literal, $measured:literal;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name {
            $(
                #[doc = $meaning]
                #[doc = ""]
                #[doc = concat!("Set by: ", $measured)]
                #[doc = ""]
                #[doc = concat!(
                    "Key `", stringify!($key), "`, default `", stringify!($default),
                    "`, from ", stringify!($low), " to ", stringify!($high), "."
                )]
                pub $key: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> $name {
                $name { $($key: $default,)* }
            }
        }

        impl $name {
            /// The keys, in table order.
            pub const KEYS: &'static [&'static str] = &[$(stringify!($key)),*];

            /// The table for `--help`: one line per key, `key=default  meaning
            /// (measurement)`.
            pub const HELP: &'static str = concat!($(
                "  ", stringify!($key), "=", stringify!($default), "  ", $meaning,
                " (", $measured, ")\n",
            )*);

            /// Sets `key` to `value`; `Ok(false)` when `key` is not in the table.
            ///
            /// # Errors
            /// A one-line message for a value that is not a number or out of the row's
            /// bounds ([`crate::durak::bot::settings::read`]).
            pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
                match key {
                    $(stringify!($key) => {
                        self.$key =
                            $crate::durak::bot::settings::read(key, value, $low as f64, $high as f64)?;
                    })*
                    _ => return Ok(false),
                }
                Ok(true)
            }
        }
    };
}

/// `key=value` pairs of `text`, comma-separated (empty items skipped).
///
/// # Errors
/// A one-line message for an item without `=`.
pub fn pairs(text: &str) -> Result<Vec<(&str, &str)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("expected key=value, got {item:?}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    settings! {
        /// A table for the tests.
        pub struct Two {
            depth: usize = 3, [0, 9], "How deep.", "a test";
            share: f64 = 0.5, [0, 1], "How much.", "another test";
        }
    }

    #[test]
    fn one_table_gives_defaults_keys_help_and_a_checked_parser() {
        let mut t = Two::default();
        assert_eq!((t.depth, t.share), (3, 0.5));
        assert_eq!(Two::KEYS, ["depth", "share"]);
        assert_eq!(
            Two::HELP,
            "  depth=3  How deep. (a test)\n  share=0.5  How much. (another test)\n"
        );
        assert_eq!(t.set("depth", "7"), Ok(true));
        assert_eq!(t.set("share", "0.25"), Ok(true));
        assert_eq!((t.depth, t.share), (7, 0.25));
        assert_eq!(t.set("width", "1"), Ok(false));
        for (k, v) in [
            ("depth", "10"),
            ("depth", "1.5"),
            ("share", "x"),
            ("share", "-0.1"),
        ] {
            assert!(t.set(k, v).is_err(), "{k}={v}");
        }
        assert_eq!(
            (t.depth, t.share),
            (7, 0.25),
            "a refused value changes nothing"
        );
        assert_eq!(pairs(" a=1, ,b=2"), Ok(vec![("a", "1"), ("b", "2")]));
        assert!(pairs("a").is_err());
    }
}
