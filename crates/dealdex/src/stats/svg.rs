//! A hand-written SVG plot of observed vs expected counts for the pattern and HCP tables.

use std::fmt::Write;

use super::report::Report;
use crate::records::html::escape;

/// Patterns shown individually (most likely first); the rest are summed as "other".
const TOP_PATTERNS: usize = 20;

const WIDTH: f64 = 1000.0;
const PANEL_HEIGHT: f64 = 420.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 20.0;
const OBSERVED_FILL: &str = "#3b6fb6";
const EXPECTED_FILL: &str = "#f0a04b";

/// One bar chart: categories with observed and expected counts.
struct Panel<'a> {
    title: String,
    /// The test's one-line result, under the title.
    subtitle: String,
    x_label: &'a str,
    labels: Vec<String>,
    observed: Vec<f64>,
    expected: Vec<f64>,
    /// Rotate the category labels (long labels).
    rotate: bool,
}

/// A tick step of 1, 2 or 5 × 10ᵏ giving about five ticks up to `max`.
fn nice_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// A short tick label: `0`, `250`, `1.5k`, `2M`.
fn short(v: f64) -> String {
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if v >= 1e6 {
        format!("{}M", trim(format!("{:.2}", v / 1e6)))
    } else if v >= 1e3 {
        format!("{}k", trim(format!("{:.2}", v / 1e3)))
    } else {
        trim(format!("{v:.2}"))
    }
}

/// A panel's bars, an observed and an expected bar for each category with its label under
/// the x axis: `x0..x1` the plot's width, `y1` the x axis's height, `y_of` a count's height
/// (SVG units, y down).
fn bars(out: &mut String, p: &Panel, (x0, x1): (f64, f64), y1: f64, y_of: impl Fn(f64) -> f64) {
    let n = p.labels.len().max(1) as f64;
    let gw = (x1 - x0) / n;
    for (i, label) in p.labels.iter().enumerate() {
        let gx = x0 + gw * i as f64;
        for (k, (class, fill, value)) in [
            ("observed", OBSERVED_FILL, p.observed[i]),
            ("expected", EXPECTED_FILL, p.expected[i]),
        ]
        .into_iter()
        .enumerate()
        {
            let y = y_of(value);
            let _ = writeln!(
                out,
                "<rect class=\"{class}\" x=\"{:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{:.2}\" \
                 fill=\"{fill}\"><title>{} {class}: {value:.1}</title></rect>",
                gx + gw * (0.1 + 0.4 * k as f64),
                gw * 0.4,
                (y1 - y).max(0.0),
                escape(label)
            );
        }
        let lx = gx + gw / 2.0;
        let ly = y1 + 14.0;
        if p.rotate {
            let _ = writeln!(
                out,
                "<text x=\"{lx:.1}\" y=\"{ly:.1}\" font-size=\"11\" text-anchor=\"end\" \
                 transform=\"rotate(-45 {lx:.1} {ly:.1})\">{}</text>",
                escape(label)
            );
        } else {
            let _ = writeln!(
                out,
                "<text x=\"{lx:.1}\" y=\"{ly:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
                escape(label)
            );
        }
    }
}

/// A panel's legend, top right: `x1` the plot's right edge, `top` the panel's top.
fn legend(out: &mut String, x1: f64, top: f64) {
    let lx = x1 - 190.0;
    for (k, (fill, text)) in [
        (OBSERVED_FILL, "observed"),
        (EXPECTED_FILL, "expected (exact theory)"),
    ]
    .into_iter()
    .enumerate()
    {
        let ly = top + 10.0 + 16.0 * k as f64;
        let _ = writeln!(
            out,
            "<rect class=\"legend\" x=\"{lx:.1}\" y=\"{ly:.1}\" width=\"12\" height=\"12\" \
             fill=\"{fill}\"/>"
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{text}</text>",
            lx + 18.0,
            ly + 10.5
        );
    }
}

/// One bar chart, its top at `top` (SVG units): title, y ticks and grid, bars, axes and
/// legend.
fn panel(out: &mut String, p: &Panel, top: f64) {
    let bottom_margin = if p.rotate { 95.0 } else { 60.0 };
    let (x0, x1) = (LEFT, WIDTH - RIGHT);
    let (y0, y1) = (top + 60.0, top + PANEL_HEIGHT - bottom_margin);
    let max = p
        .observed
        .iter()
        .chain(&p.expected)
        .fold(0.0f64, |m, &v| m.max(v));
    let step = nice_step(max);
    let y_max = if max > 0.0 {
        (max / step).ceil() * step
    } else {
        step
    };
    let y_of = |v: f64| y1 - (v / y_max) * (y1 - y0);
    let _ = writeln!(out, "<g class=\"panel\">");
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        x0,
        top + 22.0,
        escape(&p.title)
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{}</text>",
        x0,
        top + 40.0,
        escape(&p.subtitle)
    );
    // Grid lines and y ticks.
    let mut v = 0.0;
    while v <= y_max + step * 1e-9 {
        let y = y_of(v);
        let _ = writeln!(
            out,
            "<line x1=\"{x0:.1}\" y1=\"{y:.1}\" x2=\"{x1:.1}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>"
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
            x0 - 6.0,
            y + 4.0,
            short(v)
        );
        v += step;
    }
    bars(out, p, (x0, x1), y1, y_of);
    // Axes and their labels.
    let _ = writeln!(
        out,
        "<line x1=\"{x0:.1}\" y1=\"{y0:.1}\" x2=\"{x0:.1}\" y2=\"{y1:.1}\" stroke=\"black\"/>"
    );
    let _ = writeln!(
        out,
        "<line x1=\"{x0:.1}\" y1=\"{y1:.1}\" x2=\"{x1:.1}\" y2=\"{y1:.1}\" stroke=\"black\"/>"
    );
    let _ = writeln!(
        out,
        "<text class=\"axis-label\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" \
         text-anchor=\"middle\">{}</text>",
        (x0 + x1) / 2.0,
        top + PANEL_HEIGHT - 12.0,
        escape(p.x_label)
    );
    let (yx, yy) = (22.0, (y0 + y1) / 2.0);
    let _ = writeln!(
        out,
        "<text class=\"axis-label\" x=\"{yx:.1}\" y=\"{yy:.1}\" font-size=\"13\" \
         text-anchor=\"middle\" transform=\"rotate(-90 {yx:.1} {yy:.1})\">hands</text>"
    );
    legend(out, x1, top);
    let _ = writeln!(out, "</g>");
}

// The plot is written here, beside its drawing code, so that the report does not import the
// module that draws it (the two imported each other).
impl Report {
    /// An SVG plot of observed vs expected hands for the pattern table (the 20 most likely
    /// patterns and "other") and the HCP table: hand-written SVG 1.1, a standalone XML
    /// document starting with `<svg`.
    pub fn to_svg(&self) -> String {
        render(self)
    }
}

/// Renders the report's pattern and HCP tables (see [`Report::to_svg`]).
fn render(r: &Report) -> String {
    let rows = &r.patterns.rows;
    let top = rows.len().min(TOP_PATTERNS);
    let mut labels: Vec<String> = rows[..top].iter().map(|x| x.value.clone()).collect();
    let mut observed: Vec<f64> = rows[..top].iter().map(|x| x.observed as f64).collect();
    let mut expected: Vec<f64> = rows[..top].iter().map(|x| x.expected).collect();
    if rows.len() > top {
        labels.push("other".to_string());
        observed.push(rows[top..].iter().map(|x| x.observed as f64).sum());
        expected.push(rows[top..].iter().map(|x| x.expected).sum());
    }
    let patterns = Panel {
        title: format!("Sorted suit pattern per hand ({} hands)", r.hands),
        subtitle: r.patterns.test.short_summary(),
        x_label: "sorted suit pattern (20 most likely, then all others)",
        labels,
        observed,
        expected,
        rotate: true,
    };
    let hcp = Panel {
        title: format!("HCP per hand ({} hands)", r.hands),
        subtitle: r.hcp.test.short_summary(),
        x_label: "high-card points (A=4 K=3 Q=2 J=1)",
        labels: r.hcp.rows.iter().map(|x| x.value.clone()).collect(),
        observed: r.hcp.rows.iter().map(|x| x.observed as f64).collect(),
        expected: r.hcp.rows.iter().map(|x| x.expected).collect(),
        rotate: false,
    };
    let height = 2.0 * PANEL_HEIGHT + 20.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{WIDTH}\" \
         height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\">\n"
    );
    let _ = writeln!(
        out,
        "<title>dealdex set statistics: {} deals, observed vs expected</title>",
        r.deals
    );
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height}\" fill=\"white\"/>"
    );
    panel(&mut out, &patterns, 0.0);
    panel(&mut out, &hcp, PANEL_HEIGHT + 20.0);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_and_labels() {
        assert_eq!(nice_step(862_000.0), 200_000.0);
        assert_eq!(nice_step(9.0), 2.0);
        assert_eq!(nice_step(0.0), 1.0);
        assert_eq!(short(200_000.0), "200k");
        assert_eq!(short(1_500_000.0), "1.5M");
        assert_eq!(short(0.0), "0");
        assert_eq!(escape("a<b&\"c\""), "a&lt;b&amp;&quot;c&quot;");
    }
}
