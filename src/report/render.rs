//! The pages: minijinja templates (`templates/tournament/`, compiled into
//! the program) filled from the [`super::model`], and the learning curve
//! drawn with plotters' SVG backend and inlined in the page. The pages are
//! static: they open from disk, load nothing from the network, and work
//! without their script (which only adds keyboard stepping to replays).

use std::path::{Path, PathBuf};

use minijinja::{context, Environment};
use plotters::prelude::*;
use serde::Serialize;

use super::model::{HeadToHead, Replay, Report, Series};

const BASE: &str = include_str!("../../templates/tournament/base.html");
const REPORT: &str = include_str!("../../templates/tournament/report.html");
const REPLAY: &str = include_str!("../../templates/tournament/replay.html");
const STYLE: &str = include_str!("../../templates/tournament/style.css");

/// Line colours of the learning curves, one per entrant (cycled).
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn environment() -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.add_filter("ms", super::model::ms_text);
    for (name, text) in [
        ("base.html", BASE),
        ("report.html", REPORT),
        ("replay.html", REPLAY),
    ] {
        env.add_template(name, text)
            .map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(env)
}

/// The folder of the replay pages of report `path`: its stem plus `-games`,
/// beside it.
pub fn replay_dir(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    path.with_file_name(format!("{stem}-games"))
}

/// The file name of game `index`'s replay page inside [`replay_dir`].
pub fn replay_file(index: usize) -> String {
    format!("game-{index:05}.html")
}

/// The learning curve's legend: each entrant's name and line colour (CSS),
/// shown as HTML under the chart (never over a line).
#[derive(Debug, Clone, Serialize)]
struct Swatch {
    name: String,
    colour: String,
}

fn legend(series: &[Series]) -> Vec<Swatch> {
    series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let RGBColor(r, g, b) = COLOURS[i % COLOURS.len()];
            Swatch {
                name: s.name.clone(),
                colour: format!("rgb({r},{g},{b})"),
            }
        })
        .collect()
}

/// One cell of the head-to-head heat map.
#[derive(Debug, Clone, Serialize)]
struct Cell {
    text: String,
    sub: String,
    title: String,
    style: String,
}

/// The heat map's cells: the row's win rate against the column, coloured
/// from red (0%) through white (50%) to green (100%).
fn heat_cells(h: &HeadToHead) -> Vec<Vec<Cell>> {
    let n = h.names.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let (w, g) = (h.wins[i][j], h.games[i][j]);
                    if i == j || g == 0 {
                        return Cell {
                            text: if i == j { "" } else { "–" }.into(),
                            sub: String::new(),
                            title: String::new(),
                            style: "background:#eee".into(),
                        };
                    }
                    let rate = w as f64 / g as f64;
                    let (lo, hi) = crate::stats::wilson95(w, g);
                    let (r, gr, b) = if rate < 0.5 {
                        let t = rate / 0.5;
                        (230.0 + 25.0 * t, 90.0 + 165.0 * t, 80.0 + 175.0 * t)
                    } else {
                        let t = (rate - 0.5) / 0.5;
                        (255.0 - 165.0 * t, 255.0 - 55.0 * t, 255.0 - 155.0 * t)
                    };
                    Cell {
                        text: format!("{:.0}%", 100.0 * rate),
                        sub: format!("{w}/{g} [{:.0}, {:.0}]", 100.0 * lo, 100.0 * hi),
                        title: format!(
                            "{} won {w} of {g} against {} ({:.1}%, 95% interval {:.1}-{:.1}%)",
                            h.names[i],
                            h.names[j],
                            100.0 * rate,
                            100.0 * lo,
                            100.0 * hi
                        ),
                        style: format!("background:rgb({:.0},{:.0},{:.0})", r, gr, b),
                    }
                })
                .collect()
        })
        .collect()
}

/// The block size of the learning curve: about ten blocks for the entrant
/// with the most games.
pub fn block_size(series: &[Series]) -> usize {
    let most = series.iter().map(|s| s.wins.len()).max().unwrap_or(0);
    most.div_ceil(10).max(1)
}

/// Per entrant: (games played at the block's end, win rate %, low %, high %)
/// of each block of `block` games.
pub fn blocks(s: &Series, block: usize) -> Vec<(f64, f64, f64, f64)> {
    let mut out = Vec::new();
    let mut end = 0;
    for chunk in s.wins.chunks(block.max(1)) {
        end += chunk.len();
        let w = chunk.iter().filter(|&&b| b).count() as u64;
        let n = chunk.len() as u64;
        let (lo, hi) = crate::stats::wilson95(w, n);
        out.push((
            end as f64,
            100.0 * w as f64 / n as f64,
            100.0 * lo,
            100.0 * hi,
        ));
    }
    out
}

/// The learning curve as an SVG document: each entrant's win rate in
/// blocks of `block` games, with its 95% interval as a band.
///
/// # Errors
/// A drawing error (plotters'), as text.
pub fn learning_curve(series: &[Series], block: usize) -> Result<String, String> {
    let most = series
        .iter()
        .map(|s| s.wins.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (820, 340)).into_drawing_area();
        let e = |e: &dyn std::fmt::Display| format!("chart: {e}");
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..most as f64, 0f64..100f64)
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .x_desc(format!("games played (blocks of {block})"))
            .y_desc("win rate in the block, %")
            .label_style(("sans-serif", 13))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .axis_desc_style(("sans-serif", 14))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|x| e(&x))?;
        chart
            .draw_series(LineSeries::new(
                [(0.0, 50.0), (most as f64, 50.0)],
                RGBColor(170, 170, 170).stroke_width(1),
            ))
            .map_err(|x| e(&x))?;
        for (i, s) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let pts = blocks(s, block);
            if pts.is_empty() {
                continue;
            }
            let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.3)).collect();
            band.extend(pts.iter().rev().map(|p| (p.0, p.2)));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    band,
                    colour.mix(0.07).filled(),
                )))
                .map_err(|x| e(&x))?;
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0, p.1)),
                    colour.stroke_width(2),
                ))
                .map_err(|x| e(&x))?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
                )
                .map_err(|x| e(&x))?;
        }
        root.present().map_err(|x| e(&x))?;
    }
    Ok(svg)
}

/// Renders report `path` and the replay pages in [`replay_dir`] (stale
/// `game-*.html` pages there are removed first); the report's games and
/// faults link to the pages written.
///
/// # Errors
/// A one-line message: a template or chart error, or a file that cannot be
/// written.
pub fn write_site(
    report: &Report,
    series: &[Series],
    replays: &[Replay],
    path: &Path,
) -> Result<(), String> {
    let (report_html, pages) = render_site(report, series, replays, path)?;
    let dir = replay_dir(path);
    if dir.is_dir() {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("game-") && name.ends_with(".html") {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }
    if !pages.is_empty() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    for (name, html) in pages {
        let p = dir.join(name);
        std::fs::write(&p, html).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    std::fs::write(path, report_html).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The report's HTML and each replay page's (file name, HTML), as
/// [`write_site`] writes them for a report at `path`.
///
/// # Errors
/// A template or chart error, as one line.
pub fn render_site(
    report: &Report,
    series: &[Series],
    replays: &[Replay],
    path: &Path,
) -> Result<(String, Vec<(String, String)>), String> {
    let env = environment()?;
    let dir_name = replay_dir(path)
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let back = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let linked: std::collections::BTreeSet<usize> = replays.iter().map(|r| r.index).collect();
    let mut report = report.clone();
    let link = |i: usize| {
        linked
            .contains(&i)
            .then(|| format!("{dir_name}/{}", replay_file(i)))
    };
    for g in &mut report.games {
        g.href = link(g.index);
    }
    for f in &mut report.faults {
        f.href = link(f.index);
    }
    let block = block_size(series);
    let curve = if series.iter().any(|s| !s.wins.is_empty()) {
        learning_curve(series, block)?
    } else {
        String::new()
    };
    let html = env
        .get_template("report.html")
        .and_then(|t| {
            t.render(context! {
                r => &report,
                heat => heat_cells(&report.head_to_head),
                curve => curve,
                legend => legend(series),
                block => block,
                replays => replays.len(),
                css => STYLE,
            })
        })
        .map_err(|e| format!("report page: {e}"))?;
    let mut pages = Vec::new();
    let template = env
        .get_template("replay.html")
        .map_err(|e| format!("replay page: {e}"))?;
    for (k, p) in replays.iter().enumerate() {
        let nav = |i: Option<&Replay>| i.map(|r| replay_file(r.index));
        let page = template
            .render(context! {
                p => p,
                back => &back,
                report_title => &report.title,
                prev => nav(k.checked_sub(1).and_then(|i| replays.get(i))),
                next => nav(replays.get(k + 1)),
                css => STYLE,
            })
            .map_err(|e| format!("replay page of game {}: {e}", p.index))?;
        pages.push((replay_file(p.index), page));
    }
    Ok((html, pages))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_count_wins_per_block() {
        let s = Series {
            name: "x".into(),
            wins: vec![true, true, false, false, true],
        };
        let b = blocks(&s, 2);
        assert_eq!(b.len(), 3);
        assert_eq!((b[0].0, b[0].1), (2.0, 100.0));
        assert_eq!((b[1].0, b[1].1), (4.0, 0.0));
        assert_eq!((b[2].0, b[2].1), (5.0, 100.0));
        assert!(b[1].2 == 0.0 && b[1].3 > 50.0);
        assert_eq!(block_size(&[s]), 1);
    }

    #[test]
    fn the_curve_is_an_svg_with_each_entrant() {
        let s = vec![
            Series {
                name: "alpha".into(),
                wins: vec![true; 30],
            },
            Series {
                name: "beta".into(),
                wins: vec![false; 30],
            },
        ];
        let svg = learning_curve(&s, block_size(&s)).unwrap();
        // One line per entrant in its colour (the legend is the page's HTML).
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("stroke=\"#1F77B4\"") && svg.contains("stroke=\"#D62728\""));
        let html = legend(&s);
        assert_eq!(
            (html[0].name.as_str(), html[1].name.as_str()),
            ("alpha", "beta")
        );
    }
}
