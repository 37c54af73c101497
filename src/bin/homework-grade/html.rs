//! The grader's HTML (`--html DIR`): one page per submission and, for a
//! course (`--all`, a JSON array, `merge`), a course page `index.html` with
//! the distribution of points (an SVG chart drawn by plotters), the pass
//! rate of every test, the slowest tests and links to every submission's
//! page. Pages are rendered by minijinja from the templates in
//! `templates/grader/` (compiled in), from the [`Report`]s alone, so a saved
//! JSON gives the same pages (`--from-json`). Static files: CSS inline,
//! the chart inline, no script, no network; they open from disk.
//!
//! Every page's `<main>` carries the attribute `data-page-ok`, which
//! `scripts/page-check` looks for in the page Chromium loaded.
//!
//! Layout of DIR: `index.html` (a course only), `SLUG.html` per submission
//! (its directory's name, made safe for a file name), and
//! `traces/TEST.debug`: the `.debug` trace of a test's game, copied from the
//! tests directory when it holds one, otherwise written by the library's
//! [`cardgames::homework::trace()`] when that reproduces the test's reference.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use minijinja::{context, Environment};
use plotters::prelude::*;
use serde::Serialize;

use crate::grade::{same_ignoring_white_space, Report, Status, TestCase};

/// Rows in the course page's table of slowest tests.
pub const SLOWEST: usize = 10;

/// The page templates, compiled into the program.
fn environment() -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    let templates = [
        (
            "base.html",
            include_str!("../../../templates/grader/base.html"),
        ),
        (
            "course.html",
            include_str!("../../../templates/grader/course.html"),
        ),
        (
            "submission.html",
            include_str!("../../../templates/grader/submission.html"),
        ),
    ];
    for (name, text) in templates {
        env.add_template(name, text)
            .map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(env)
}

/// The longest slug: with a clash's `-N` and `.html` the page's name stays far
/// below the 255 bytes a file name may hold (a 251-byte submission name used to
/// stop the whole course's pages).
const MAX_SLUG: usize = 100;

/// A file name for a submission's page: its directory's last component with
/// every character but ASCII letters, digits, `.`, `-` and `_` made `_`, cut to
/// [`MAX_SLUG`] characters; `index` and `traces` (the course page's and the
/// traces') are avoided.
pub fn slug(submission: &str) -> String {
    let name = Path::new(submission)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| "submission".to_owned());
    let safe: String = name
        .chars()
        .take(MAX_SLUG)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.').to_owned();
    match safe.as_str() {
        "" => "submission".to_owned(),
        "index" | "traces" => format!("{safe}-submission"),
        _ => safe,
    }
}

/// Slugs for every report, distinct (a clash gets `-2`, `-3`, ...).
fn slugs(reports: &[Report]) -> Vec<String> {
    let mut used = HashSet::new();
    reports
        .iter()
        .map(|r| {
            let base = slug(&r.submission);
            let mut name = base.clone();
            let mut n = 1;
            while !used.insert(name.clone()) {
                n += 1;
                name = format!("{base}-{n}");
            }
            name
        })
        .collect()
}

/// An anchor for a test on a submission's page: `t-tests_razboi-razboi3`.
pub fn anchor(test: &str) -> String {
    let safe: String = test
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("t-{safe}")
}

/// Writes the `.debug` trace of every test named in `names` that has one
/// into `dir/traces/`; returns the link of each (relative to `dir`).
fn write_traces(
    dir: &Path,
    tests: &[TestCase],
    names: &HashSet<&str>,
) -> Result<BTreeMap<String, String>, String> {
    let mut links = BTreeMap::new();
    for test in tests.iter().filter(|t| names.contains(t.name.as_str())) {
        let official = test.input.with_extension("debug");
        let text = match fs::read(&official) {
            Ok(bytes) => Some(bytes),
            Err(_) => fs::read_to_string(&test.input)
                .ok()
                .and_then(|input| cardgames::homework::trace(&input).ok())
                .filter(|t| same_ignoring_white_space(t.out.as_bytes(), &test.reference))
                .map(|t| t.debug.into_bytes()),
        };
        let Some(text) = text else { continue };
        let link = format!("traces/{}.debug", test.name);
        let path = dir.join(&link);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        links.insert(test.name.clone(), link);
    }
    Ok(links)
}

/// A line of a difference split where it starts to differ.
#[derive(Serialize)]
struct Split {
    same: String,
    differs: String,
}

fn split_at_column(line: &str, column: Option<usize>) -> Split {
    let at = column.unwrap_or(1).saturating_sub(1);
    Split {
        same: line.chars().take(at).collect(),
        differs: line.chars().skip(at).collect(),
    }
}

/// The points less the valgrind deduction.
pub fn net(report: &Report) -> f64 {
    let cut = report.valgrind.as_ref().map_or(0, |v| v.deduction);
    ((report.points - f64::from(cut)) * 100.0).round() / 100.0
}

fn status_counts(report: &Report) -> Vec<(String, usize)> {
    Status::ALL
        .iter()
        .filter_map(|&s| {
            let n = report.count(s);
            (n > 0).then(|| (s.name().to_owned(), n))
        })
        .collect()
}

/// One submission's page.
fn submission_page(
    env: &Environment,
    report: &Report,
    traces: &BTreeMap<String, String>,
    course: bool,
) -> Result<String, String> {
    let tests: Vec<minijinja::Value> = report
        .tests
        .iter()
        .map(|t| {
            let diff = t.first_difference.as_ref().map(|d| {
                context! {
                    line => d.line,
                    before_first => d.line - d.before.len(),
                    before => d.before,
                    expected => d.expected.as_deref().map(|l| split_at_column(l, d.expected_column)),
                    actual => d.actual.as_deref().map(|l| split_at_column(l, d.actual_column)),
                    expected_after => d.expected_after,
                    actual_after => d.actual_after,
                }
            });
            context! {
                name => t.name,
                anchor => anchor(&t.name),
                status => t.status.name(),
                signal => t.signal,
                points => format!("{:.2}", t.points),
                seconds => format!("{:.3}", t.seconds),
                difference => diff,
                memcheck => t.memcheck,
                trace => traces.get(&t.name),
            }
        })
        .collect();
    let valgrind = report.valgrind.as_ref().map(|v| {
        context! { deduction => v.deduction, tests_with_errors => v.tests_with_errors }
    });
    let failing = report.tests.iter().filter(|t| t.status != Status::Passed);
    // The valgrind counts of a test are shown with the test.
    let shown: HashSet<String> = report
        .tests
        .iter()
        .filter(|t| t.memcheck.is_some())
        .map(|t| format!("valgrind {}:", t.name))
        .collect();
    let notes: Vec<&String> = report
        .notes
        .iter()
        .filter(|n| !shown.iter().any(|s| n.starts_with(s.as_str())))
        .collect();
    env.get_template("submission.html")
        .and_then(|t| {
            t.render(context! {
                title => format!("{}: {:.2}/{:.0}", slug(&report.submission), report.points, report.max_points),
                submission => report.submission,
                name => Path::new(&report.submission).file_name().map_or(report.submission.clone(), |n| n.to_string_lossy().into_owned()),
                points => format!("{:.2}", report.points),
                max_points => format!("{:.0}", report.max_points),
                net => format!("{:.2}", net(report)),
                valgrind => valgrind,
                readme => report.readme,
                clean => report.clean,
                sandbox => report.sandbox,
                partial => report.partial,
                notes => notes,
                statuses => status_counts(report),
                failing => failing.map(|t| context! { name => t.name, anchor => anchor(&t.name), status => t.status.name() }).collect::<Vec<_>>(),
                has_difference => report.tests.iter().any(|t| t.first_difference.is_some()),
                tests => tests,
                course => course,
            })
        })
        .map_err(|e| format!("cannot render the page of {}: {e:#}", report.submission))
}

/// The bin of a score on the chart: 0 for 0-9.99, ..., 9 for 90-99.99, 10
/// for 100 (and above).
fn bin(points: f64) -> u32 {
    // Scores are at most 100: 11 bins.
    (points / 10.0).floor().clamp(0.0, 10.0) as u32
}

/// The label of bin `b`.
fn bin_label(b: u32) -> String {
    if b >= 10 {
        "100".to_owned()
    } else {
        format!("{}-{}", b * 10, b * 10 + 9)
    }
}

/// The distribution of `points` (net of deductions) as an SVG histogram.
fn points_chart(points: &[f64]) -> Result<String, String> {
    let mut counts = [0u32; 11];
    for &p in points {
        counts[bin(p) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 320)).into_drawing_area();
        let e = |e: &dyn std::fmt::Display| format!("cannot draw the chart: {e}");
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut chart = ChartBuilder::on(&root)
            .margin(14)
            .x_label_area_size(42)
            .y_label_area_size(46)
            .build_cartesian_2d((0u32..10u32).into_segmented(), 0u32..top + top / 5 + 1)
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.12))
            .y_desc("submissions")
            .x_desc("points less the valgrind deduction")
            .axis_desc_style(("sans-serif", 15))
            .label_style(("sans-serif", 14))
            .x_labels(11)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(b) => bin_label(*b),
                _ => String::new(),
            })
            .y_label_formatter(&|v| format!("{v}"))
            .draw()
            .map_err(|x| e(&x))?;
        // One bar per bin, in bin order (plotters' Histogram keeps its bars
        // in a hash map: its SVG would differ from run to run).
        let fill = RGBColor(0x2f, 0x6f, 0xb3).filled();
        chart
            .draw_series(counts.iter().enumerate().map(|(b, &n)| {
                let b = b as u32;
                let mut bar = Rectangle::new(
                    [(SegmentValue::Exact(b), 0), (SegmentValue::Exact(b + 1), n)],
                    fill,
                );
                bar.set_margin(0, 0, 6, 6);
                bar
            }))
            .map_err(|x| e(&x))?;
        // Each bar's count above it.
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(b, &n)| {
                        Text::new(
                            n.to_string(),
                            (SegmentValue::CenterOf(b as u32), n),
                            ("sans-serif", 13).into_font().color(&BLACK).pos(
                                plotters::style::text_anchor::Pos::new(
                                    plotters::style::text_anchor::HPos::Center,
                                    plotters::style::text_anchor::VPos::Bottom,
                                ),
                            ),
                        )
                    }),
            )
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    Ok(svg)
}

/// The course page.
fn course_page(env: &Environment, reports: &[Report], slugs: &[String]) -> Result<String, String> {
    let nets: Vec<f64> = reports.iter().map(net).collect();
    let chart = points_chart(&nets)?;
    let mut sorted = nets.clone();
    sorted.sort_by(f64::total_cmp);
    let median = match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    };
    let mean = nets.iter().sum::<f64>() / nets.len().max(1) as f64;
    // Every test, in the order of the first report that has it.
    let mut order: Vec<&str> = Vec::new();
    let mut per_test: BTreeMap<&str, [usize; 6]> = BTreeMap::new();
    // Seconds summed and runs counted, over the runs that ran to their end.
    let mut times: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for r in reports {
        for t in &r.tests {
            let time = times.entry(&t.name).or_default();
            if !matches!(t.status, Status::BuildFailed | Status::TimedOut) {
                time.0 += t.seconds;
                time.1 += 1;
            }
            let counts = per_test.entry(&t.name).or_insert_with(|| {
                order.push(&t.name);
                [0; 6]
            });
            let i = Status::ALL.iter().position(|&s| s == t.status).unwrap_or(0);
            counts[i] += 1;
        }
    }
    let tests: Vec<minijinja::Value> = order
        .iter()
        .map(|name| {
            let counts = per_test[name];
            let total: usize = counts.iter().sum();
            let rate = 100.0 * counts[0] as f64 / total.max(1) as f64;
            let (sum, runs) = times[name];
            let mean = (runs > 0).then(|| format!("{:.3}", sum / runs as f64));
            context! {
                name => name,
                passed => counts[0],
                total => total,
                rate => format!("{rate:.0}"),
                width => format!("{rate:.1}"),
                wrong_answer => counts[1],
                no_output => counts[2],
                crashed => counts[3],
                timed_out => counts[4],
                build_failed => counts[5],
                mean => mean,
            }
        })
        .collect();
    let mut runs: Vec<(usize, &crate::grade::TestResult)> = reports
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.tests.iter().map(move |t| (i, t)))
        .filter(|(_, t)| !matches!(t.status, Status::BuildFailed | Status::TimedOut))
        .collect();
    // Slowest first; ties in report order, so the page is stable.
    runs.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds).then(a.0.cmp(&b.0)));
    let slowest: Vec<minijinja::Value> = runs
        .iter()
        .take(SLOWEST)
        .map(|(i, t)| {
            context! {
                submission => slugs[*i],
                href => format!("{}.html#{}", slugs[*i], anchor(&t.name)),
                test => t.name,
                seconds => format!("{:.3}", t.seconds),
                status => t.status.name(),
            }
        })
        .collect();
    let submissions: Vec<minijinja::Value> = reports
        .iter()
        .zip(slugs)
        .map(|(r, s)| {
            context! {
                name => s,
                href => format!("{s}.html"),
                points => format!("{:.2}", r.points),
                net => format!("{:.2}", net(r)),
                deduction => r.valgrind.as_ref().map(|v| v.deduction),
                readme => r.readme,
                clean => r.clean,
                partial => r.partial,
                statuses => status_counts(r),
            }
        })
        .collect();
    let statuses: Vec<(String, usize)> = Status::ALL
        .iter()
        .map(|&s| {
            (
                s.name().to_owned(),
                reports.iter().map(|r| r.count(s)).sum(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let full = nets.iter().filter(|&&p| p >= 100.0).count();
    let timed_out: usize = reports.iter().map(|r| r.count(Status::TimedOut)).sum();
    env.get_template("course.html")
        .and_then(|t| {
            t.render(context! {
                title => format!("Grades: {} submissions", reports.len()),
                count => reports.len(),
                mean => format!("{mean:.2}"),
                median => format!("{median:.2}"),
                full => full,
                chart => minijinja::Value::from_safe_string(chart),
                tests => tests,
                statuses => statuses,
                slowest => slowest,
                timed_out => timed_out,
                submissions => submissions,
            })
        })
        .map_err(|e| format!("cannot render the course page: {e:#}"))
}

/// What [`write()`] wrote.
#[derive(Debug)]
pub struct Written {
    /// The course page, when there is one.
    pub course: Option<PathBuf>,
    /// Every submission's page, in the order of the reports.
    pub submissions: Vec<PathBuf>,
    /// Traces written.
    pub traces: usize,
}

/// Writes the pages of `reports` into `dir` (created if missing): a page per
/// submission and, when `course`, the course page `index.html`; `tests` (the
/// graded tests, possibly none) give the `.debug` traces to link.
///
/// # Errors
/// A message when a file cannot be written or a page cannot be rendered.
pub fn write(
    dir: &Path,
    reports: &[Report],
    course: bool,
    tests: &[TestCase],
) -> Result<Written, String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let env = environment()?;
    let names: HashSet<&str> = reports
        .iter()
        .flat_map(|r| r.tests.iter().map(|t| t.name.as_str()))
        .collect();
    let traces = write_traces(dir, tests, &names)?;
    let slugs = slugs(reports);
    let mut written = Written {
        course: None,
        submissions: Vec::new(),
        traces: traces.len(),
    };
    for (report, slug) in reports.iter().zip(&slugs) {
        let page = submission_page(&env, report, &traces, course)?;
        let path = dir.join(format!("{slug}.html"));
        fs::write(&path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.submissions.push(path);
    }
    if course {
        let page = course_page(&env, reports, &slugs)?;
        let path = dir.join("index.html");
        fs::write(&path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.course = Some(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_and_distinct() {
        assert_eq!(slug("subs/ana maria"), "ana_maria");
        assert_eq!(slug("."), "submission");
        assert_eq!(slug("x/index"), "index-submission");
        assert_eq!(slug("x/../.hidden"), "hidden");
        // A name near the file system's 255 bytes leaves room for `-N.html`.
        assert_eq!(slug(&"a".repeat(255)), "a".repeat(MAX_SLUG));
        assert_eq!(anchor("tests_razboi/razboi3"), "t-tests-razboi-razboi3");
    }

    #[test]
    fn what_a_submission_wrote_is_escaped() {
        use crate::grade::{first_difference, TestResult};
        let hostile = "<script>alert(1)</script>";
        let report = Report {
            submission: "subs/<b>x".to_owned(),
            points: 0.0,
            max_points: 100.0,
            tests: vec![TestResult {
                name: "t/a".to_owned(),
                status: Status::WrongAnswer,
                points: 0.0,
                seconds: 0.01,
                signal: None,
                first_difference: first_difference(hostile.as_bytes(), b"1\n"),
                memcheck: None,
            }],
            valgrind: None,
            readme: false,
            clean: None,
            sandbox: "bubblewrap".to_owned(),
            notes: vec![format!("make build failed: {hostile}")],
            shard: None,
            fingerprint: None,
            partial: false,
            build_seconds: 0.0,
        };
        let env = environment().unwrap();
        let page = submission_page(&env, &report, &BTreeMap::new(), true).unwrap();
        assert!(
            !page.contains("<script") && !page.contains("<b>x"),
            "{page}"
        );
        assert!(page.contains("&lt;script&gt;alert(1)&lt;"), "{page}");
        let course = course_page(
            &env,
            std::slice::from_ref(&report),
            &slugs(std::slice::from_ref(&report)),
        )
        .unwrap();
        assert!(!course.contains("<script") && course.contains("href=\"_b_x.html\""));
    }

    #[test]
    fn bins_of_ten_points_and_100_apart() {
        assert_eq!(bin(0.0), 0);
        assert_eq!(bin(9.99), 0);
        assert_eq!(bin(80.0), 8);
        assert_eq!(bin(99.5), 9);
        assert_eq!(bin(100.0), 10);
        assert_eq!(bin(-3.0), 0);
        assert_eq!(bin_label(10), "100");
        assert_eq!(bin_label(3), "30-39");
    }

    #[test]
    fn the_chart_is_an_svg_with_one_bar_per_nonempty_bin() {
        let svg = points_chart(&[100.0, 100.0, 80.0, 0.0]).unwrap();
        assert!(svg.starts_with("<svg"), "{svg:.80}");
        for label in ["100", "80-89", "0-9", "submissions"] {
            assert!(
                svg.contains(&format!("\n{label}\n</text>")),
                "{label} missing"
            );
        }
        let bars: Vec<&str> = svg
            .lines()
            .filter(|l| l.starts_with("<rect") && l.contains("#2F6FB3"))
            .collect();
        assert_eq!(bars.len(), 11, "a bar per bin");
        assert_eq!(
            bars.iter().filter(|b| !b.contains("height=\"0\"")).count(),
            3
        );
        assert_eq!(svg, points_chart(&[100.0, 100.0, 80.0, 0.0]).unwrap());
    }
}
