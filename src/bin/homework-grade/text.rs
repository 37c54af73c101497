//! A test's result as text for people: the terminal's lines under a test,
//! and the one-line summaries the JUnit and Gradescope reports carry. Text
//! from a submission goes through [`shown`] first.

use crate::grade::{Status, TestResult};

/// Text from a submission (its output, its build's messages, its name) as the
/// terminal shows it: control characters escaped (`\u{1b}`), so none clears
/// the screen, hides the summary or writes the clipboard, and the bidirectional
/// formatting characters too, so none reorders what a line shows (the HTML
/// pages escape the same text their own way). The result holds no character
/// XML 1.0 forbids (controls but tab, U+FFFE, U+FFFF are escaped), so the
/// JUnit report can carry it.
pub fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            // Controls, and the bidirectional formatting characters (U+200E/F, U+202A-E,
            // U+2066-9), which can make a terminal show a line in another order ("dessap"
            // shown as "passed").
            let bidi = matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            let not_xml = matches!(c, '\u{FFFE}' | '\u{FFFF}');
            if (c.is_control() && c != '\t') || bidi || not_xml {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The status with a crash's signal: `crashed (SIGSEGV)`.
pub fn outcome(t: &TestResult) -> String {
    match &t.signal {
        Some(sig) => format!("{} ({sig})", t.status.name()),
        None => t.status.name().to_owned(),
    }
}

/// One line: the status and, for a wrong answer, where `out` first differs
/// (`wrong_answer: line 1: expected "3", got "2"`); for a timeout, its time.
pub fn summary(t: &TestResult) -> String {
    let mut line = outcome(t);
    if let Some(d) = &t.first_difference {
        let side = |l: &Option<String>, none: &str| {
            l.as_deref()
                .map_or(none.to_owned(), |l| format!("{:?}", shown(l)))
        };
        line += &format!(
            ": line {}: expected {}, got {}",
            d.line,
            side(&d.expected, "the end of the reference"),
            side(&d.actual, "the end of out")
        );
    } else if t.status == Status::TimedOut {
        line += &format!(" after {:.2} s", t.seconds);
    }
    line
}

/// The lines the terminal prints under a test: where its `out` first differs
/// from the reference (with context and a `^` under the first differing
/// character), and valgrind's first error with its stack.
pub fn details(t: &TestResult) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(d) = &t.first_difference {
        lines.push(format!(
            "    first difference: line {} (compared as diff -w)",
            d.line
        ));
        let first = d.line - d.before.len();
        for (i, l) in d.before.iter().enumerate() {
            lines.push(format!("        {:>5} | {}", first + i, shown(l)));
        }
        let show = |line: &Option<String>, end: &str| line.as_deref().map_or(end.to_owned(), shown);
        lines.push(format!(
            "      - {:>5} | {}   (expected)",
            d.line,
            show(&d.expected, "(the reference ends here)")
        ));
        lines.push(format!(
            "      + {:>5} | {}   (actual)",
            d.line,
            show(&d.actual, "(out ends here)")
        ));
        if let (Some(_), Some(column)) = (&d.actual, d.actual_column) {
            lines.push(format!("        {:>5}   {}^", "", " ".repeat(column - 1)));
        }
    }
    if let Some(m) = &t.memcheck {
        lines.push(format!(
            "    valgrind: {} errors, {} bytes definitely and {} indirectly lost",
            m.errors, m.definitely_lost, m.indirectly_lost
        ));
        if let Some(e) = &m.first_error {
            lines.push(format!("      {}", shown(&e.what)));
            for l in e.stack.iter().take(8) {
                lines.push(format!("        {}", shown(l)));
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_submissions_control_characters_reach_the_terminal_escaped() {
        // Clear the screen, a clipboard write (OSC 52), hidden text.
        let hostile = "\u{1b}[2J\u{1b}]52;c;cm0K\u{7}\u{1b}[8m100/100\tok";
        let text = shown(hostile);
        assert!(!text.chars().any(|c| c.is_control() && c != '\t'), "{text}");
        assert_eq!(
            text,
            "\\u{1b}[2J\\u{1b}]52;c;cm0K\\u{7}\\u{1b}[8m100/100\tok"
        );
        assert_eq!(shown("plain ăîș line"), "plain ăîș line");
        // A right-to-left override would show "dessap" as "passed".
        assert_eq!(shown("1 \u{202E} dessap"), "1 \\u{202e} dessap");
        assert_eq!(shown("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        // What XML 1.0 cannot carry at all.
        assert_eq!(shown("a\u{FFFF}"), "a\\u{ffff}");
    }
}
