//! The results in the formats other tools read: JUnit XML (CI test
//! reporters: GitLab, Jenkins) and Gradescope's autograder `results.json`.
//! Both are made from the [`Report`]s alone, like the JSON and the pages.

use std::path::Path;

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use serde::Serialize;

use crate::grade::{Report, Status, TestCase, TestResult};
use crate::html::net;
use crate::text::{details, shown, summary};

/// The name a submission goes by in the reports: its directory's name
/// (the whole path when it has none), as [`shown`].
pub fn short_name(report: &Report) -> String {
    let path = Path::new(&report.submission);
    shown(&path.file_name().map_or(report.submission.clone(), |n| {
        n.to_string_lossy().into_owned()
    }))
}

/// A test's one-line summary ([`summary`]); a `build_failed` test's carries
/// why the build failed (its note in the report).
fn test_summary(report: &Report, t: &TestResult) -> String {
    let cause = report
        .notes
        .iter()
        .find(|n| n.starts_with(crate::grade::BUILD_FAILED_NOTE));
    match cause {
        Some(cause) if t.status == Status::BuildFailed => {
            format!("{}: {}", summary(t), shown(cause))
        }
        _ => summary(t),
    }
}

/// A test's failure text: its one-line summary, then the terminal's lines
/// under it.
fn failure_text(report: &Report, t: &TestResult) -> String {
    let lines = details(t);
    let first = test_summary(report, t);
    if lines.is_empty() {
        first
    } else {
        format!("{first}\n{}", lines.join("\n"))
    }
}

fn element<'a>(name: &'a str, attributes: &[(&str, String)]) -> BytesStart<'a> {
    let mut start = BytesStart::new(name);
    for (key, value) in attributes {
        start.push_attribute((*key, value.as_str()));
    }
    start
}

/// The JUnit XML of `reports`: a `testsuites` holding one `testsuite` per
/// submission (its name the submission's directory name), a `testcase` per
/// test (`time` its `make run` seconds) and a `failure` for every test that
/// did not pass (`type` the status, `message` the status and the first
/// difference, the text the terminal's lines under the test). The points,
/// the deductions and the sandbox are the suite's `properties`; its notes
/// are its `system-out`. Every text is escaped by quick-xml, and text from
/// a submission goes through [`shown`] (no character XML forbids).
///
/// # Errors
/// Never in practice (the XML is written to memory); an I/O message otherwise.
pub fn junit(reports: &[Report]) -> Result<String, String> {
    let failures = |r: &Report| r.tests.len() - r.count(Status::Passed);
    let seconds = |r: &Report| r.tests.iter().map(|t| t.seconds).sum::<f64>();
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let io = |e: std::io::Error| format!("cannot write the JUnit XML: {e}");
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .map_err(io)?;
    let all_tests: usize = reports.iter().map(|r| r.tests.len()).sum();
    let all_failures: usize = reports.iter().map(failures).sum();
    let all_seconds: f64 = reports.iter().map(seconds).sum();
    w.write_event(Event::Start(element(
        "testsuites",
        &[
            ("name", "homework-grade".to_owned()),
            ("tests", all_tests.to_string()),
            ("failures", all_failures.to_string()),
            ("errors", "0".to_owned()),
            ("time", format!("{all_seconds:.3}")),
        ],
    )))
    .map_err(io)?;
    for r in reports {
        let name = short_name(r);
        w.write_event(Event::Start(element(
            "testsuite",
            &[
                ("name", name.clone()),
                ("tests", r.tests.len().to_string()),
                ("failures", failures(r).to_string()),
                ("errors", "0".to_owned()),
                ("skipped", "0".to_owned()),
                ("time", format!("{:.3}", seconds(r))),
            ],
        )))
        .map_err(io)?;
        w.write_event(Event::Start(BytesStart::new("properties")))
            .map_err(io)?;
        let valgrind = r.valgrind.as_ref();
        let properties = [
            ("points", format!("{:.2}", r.points)),
            ("max_points", format!("{:.0}", r.max_points)),
            ("points_less_deductions", format!("{:.2}", net(r))),
            (
                "valgrind_tests_with_errors",
                valgrind.map_or("not measured".to_owned(), |v| {
                    v.tests_with_errors.to_string()
                }),
            ),
            (
                "valgrind_deduction",
                valgrind.map_or("not measured".to_owned(), |v| v.deduction.to_string()),
            ),
            ("readme", r.readme.to_string()),
            (
                "clean",
                r.clean.map_or("not checked".to_owned(), |c| c.to_string()),
            ),
            ("sandbox", r.sandbox.clone()),
            ("partial", r.partial.to_string()),
        ];
        for (key, value) in properties {
            w.write_event(Event::Empty(element(
                "property",
                &[("name", key.to_owned()), ("value", value)],
            )))
            .map_err(io)?;
        }
        w.write_event(Event::End(BytesEnd::new("properties")))
            .map_err(io)?;
        for t in &r.tests {
            let case = element(
                "testcase",
                &[
                    ("name", shown(&t.name)),
                    ("classname", name.clone()),
                    ("time", format!("{:.3}", t.seconds)),
                ],
            );
            if t.status == Status::Passed {
                w.write_event(Event::Empty(case)).map_err(io)?;
                continue;
            }
            w.write_event(Event::Start(case)).map_err(io)?;
            w.write_event(Event::Start(element(
                "failure",
                &[
                    ("message", test_summary(r, t)),
                    ("type", t.status.name().to_owned()),
                ],
            )))
            .map_err(io)?;
            w.write_event(Event::Text(BytesText::new(&failure_text(r, t))))
                .map_err(io)?;
            w.write_event(Event::End(BytesEnd::new("failure")))
                .map_err(io)?;
            w.write_event(Event::End(BytesEnd::new("testcase")))
                .map_err(io)?;
        }
        if !r.notes.is_empty() {
            let notes: Vec<String> = r.notes.iter().map(|n| shown(n)).collect();
            w.write_event(Event::Start(BytesStart::new("system-out")))
                .map_err(io)?;
            w.write_event(Event::Text(BytesText::new(&notes.join("\n"))))
                .map_err(io)?;
            w.write_event(Event::End(BytesEnd::new("system-out")))
                .map_err(io)?;
        }
        w.write_event(Event::End(BytesEnd::new("testsuite")))
            .map_err(io)?;
    }
    w.write_event(Event::End(BytesEnd::new("testsuites")))
        .map_err(io)?;
    let mut text = String::from_utf8(w.into_inner()).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// The valgrind deduction in one line: `2 tests with memory errors or
/// definitely/indirectly lost blocks: -2 points (1 a test, at most 5)`, or
/// `not measured`.
fn valgrind_line(report: &Report) -> String {
    report
        .valgrind
        .as_ref()
        .map_or("not measured".to_owned(), |v| {
            format!(
                "{} tests with memory errors or definitely/indirectly lost blocks: -{} points \
             (1 a test, at most {})",
                v.tests_with_errors,
                v.deduction,
                crate::grade::VALGRIND_MAX_DEDUCTION
            )
        })
}

/// Who sees a Gradescope test's result: Gradescope's four settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum Visibility {
    /// Students never see it.
    Hidden,
    /// Shown once the due date has passed.
    AfterDueDate,
    /// Shown once the grades are published.
    AfterPublished,
    /// Always shown.
    Visible,
}

impl Visibility {
    /// Gradescope's spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
            Visibility::Visible => "visible",
        }
    }
}

/// One entry of Gradescope's `tests`.
#[derive(Debug, Serialize)]
struct GradescopeTest {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

/// Gradescope's `results.json` (its autograder specification's fields).
#[derive(Debug, Serialize)]
struct Gradescope {
    score: f64,
    execution_time: u64,
    output: String,
    output_format: &'static str,
    tests: Vec<GradescopeTest>,
}

/// Gradescope's `results.json` for one submission: `score` the points less
/// the valgrind deduction (never below 0), `execution_time` the grading's
/// whole seconds, `output` the summary and the notes; in `tests` one entry
/// per test (its points of `tests`' weights scaled to 100 as `max_score`,
/// `passed` or `failed`, the status and first difference in `output`), then
/// the deductions as entries of their own: valgrind (`score` minus its
/// deduction, `max_score` 0), README and `make clean` (0 of 0, reported).
/// Every entry has `visibility`.
///
/// # Errors
/// A message when the JSON cannot be made.
pub fn gradescope(
    report: &Report,
    tests: &[TestCase],
    visibility: Visibility,
    seconds: f64,
) -> Result<String, String> {
    let weights = crate::grade::scaled_points(tests);
    let vis = visibility.name();
    let mut entries: Vec<GradescopeTest> = report
        .tests
        .iter()
        .map(|t| {
            let passed = t.status == Status::Passed;
            GradescopeTest {
                name: shown(&t.name),
                score: t.points,
                max_score: weights.get(&t.name).copied().unwrap_or(t.points),
                status: if passed { "passed" } else { "failed" },
                output: if passed {
                    format!("passed in {:.2} s", t.seconds)
                } else {
                    failure_text(report, t)
                },
                visibility: vis,
            }
        })
        .collect();
    let (valgrind_score, valgrind_ok, valgrind_output) = match &report.valgrind {
        Some(v) => {
            let bad: Vec<String> = report
                .tests
                .iter()
                .filter(|t| t.memcheck.is_some())
                .map(|t| format!("{}:\n{}", shown(&t.name), details(t).join("\n")))
                .collect();
            (
                -f64::from(v.deduction),
                v.deduction == 0,
                format!(
                    "{}{}{}",
                    valgrind_line(report),
                    if bad.is_empty() { "" } else { "\n" },
                    bad.join("\n")
                ),
            )
        }
        None => (0.0, true, "not measured".to_owned()),
    };
    entries.push(GradescopeTest {
        name: "valgrind: memory errors and leaks".to_owned(),
        score: valgrind_score,
        max_score: 0.0,
        status: if valgrind_ok { "passed" } else { "failed" },
        output: valgrind_output,
        visibility: vis,
    });
    let reported = |name: &str, value: Option<bool>, what: &str| GradescopeTest {
        name: name.to_owned(),
        score: 0.0,
        max_score: 0.0,
        status: if value == Some(false) {
            "failed"
        } else {
            "passed"
        },
        output: format!(
            "{what}: {} (reported, not counted in the score)",
            match value {
                Some(true) => "yes",
                Some(false) => "no",
                None => "not checked",
            }
        ),
        visibility: vis,
    };
    entries.push(reported(
        "README",
        Some(report.readme),
        "a non-empty README file at the top of the submission",
    ));
    entries.push(reported(
        "make clean",
        report.clean,
        "make clean succeeds and removes everything make build made",
    ));
    let mut output = format!(
        "{:.2}/{:.0} points, valgrind deduction {}: score {:.2}\nsandbox: {}",
        report.points,
        report.max_points,
        report
            .valgrind
            .as_ref()
            .map_or("not measured".to_owned(), |v| v.deduction.to_string()),
        net(report).max(0.0),
        report.sandbox
    );
    if report.partial {
        output += "\nthe grading was interrupted: partial result";
    }
    for note in &report.notes {
        output += "\n";
        output += &shown(note);
    }
    let results = Gradescope {
        score: net(report).max(0.0),
        execution_time: seconds.round() as u64,
        output,
        output_format: "text",
        tests: entries,
    };
    serde_json::to_string_pretty(&results)
        .map(|j| j + "\n")
        .map_err(|e| e.to_string())
}

/// One test of a GitHub Classroom runner's result.
#[derive(Debug, Serialize)]
struct ClassroomTest {
    name: String,
    status: &'static str,
    score: f64,
    message: String,
    test_code: String,
    filename: String,
    line_no: u32,
    execution_time: String,
}

/// A GitHub Classroom runner's result (what `autograding-grading-reporter`
/// reads, base64-encoded, from a step's `result` output).
#[derive(Debug, Serialize)]
struct Classroom {
    version: u32,
    status: &'static str,
    max_score: f64,
    tests: Vec<ClassroomTest>,
}

/// The result of one submission as a GitHub Classroom autograding runner
/// gives it (the JSON that `classroom-resources/autograding-grading-reporter`
/// decodes from base64: `version` 1, `status` `pass` or `fail`, `max_score`,
/// and `tests` whose scores it adds up as the points): one test per test
/// (`score` its points, `message` the status and first difference), then
/// `valgrind` with minus the deduction, so the points Classroom shows are
/// the points less the deduction. `status` is `pass` only when every test
/// passed and nothing was deducted.
///
/// # Errors
/// A message when the JSON cannot be made.
pub fn classroom(report: &Report) -> Result<String, String> {
    let mut tests: Vec<ClassroomTest> = report
        .tests
        .iter()
        .map(|t| {
            let passed = t.status == Status::Passed;
            ClassroomTest {
                name: shown(&t.name),
                status: if passed { "pass" } else { "fail" },
                score: t.points,
                message: if passed {
                    String::new()
                } else {
                    failure_text(report, t)
                },
                test_code: format!("cp {}.in in; make run; diff -w out {0}.ref", shown(&t.name)),
                filename: String::new(),
                line_no: 0,
                execution_time: format!("{:.2}s", t.seconds),
            }
        })
        .collect();
    let deduction = report.valgrind.as_ref().map_or(0, |v| v.deduction);
    tests.push(ClassroomTest {
        name: "valgrind: memory errors and leaks".to_owned(),
        status: if deduction == 0 { "pass" } else { "fail" },
        score: -f64::from(deduction),
        message: valgrind_line(report),
        test_code: "make run under valgrind --leak-check=full".to_owned(),
        filename: String::new(),
        line_no: 0,
        execution_time: String::new(),
    });
    let all_passed = report.count(Status::Passed) == report.tests.len() && !report.partial;
    let result = Classroom {
        version: 1,
        status: if all_passed && deduction == 0 {
            "pass"
        } else {
            "fail"
        },
        max_score: report.max_points,
        tests,
    };
    serde_json::to_string(&result)
        .map(|j| j + "\n")
        .map_err(|e| e.to_string())
}
