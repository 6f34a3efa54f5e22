//! SVG charts of the offline tools, drawn with `plotters` (axes, tick labels and legends
//! without hand-written SVG): the tuner's loss curve (`chariot tune --svg`), the WDL model's
//! calibration (`chariot wdl --svg`) and an SPSA run's parameter paths (`chariot spsa`).

use plotters::prelude::*;

/// Any drawing error, as text.
fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A line chart of `points` (x, y) under `title`, the y axis fitted to the values.
pub fn line_chart(
    points: &[(f64, f64)],
    title: &str,
    x_desc: &str,
    y_desc: &str,
) -> Result<String, String> {
    let x_max = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        let pad = ((hi - lo) * 0.05).max(1e-9);
        (lo - pad, hi + pad)
    } else {
        (0.0, 1.0)
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..x_max, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .max_light_lines(1)
            .label_style(("sans-serif", 11))
            .y_label_formatter(&|v| format!("{v:.5}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                RGBColor(220, 20, 60).stroke_width(2),
            ))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// One series of a calibration chart: its name, colour and (predicted, observed) points.
pub struct Calibration<'a> {
    /// Legend text.
    pub name: &'a str,
    /// Line and point colour.
    pub color: RGBColor,
    /// (predicted probability, observed frequency) pairs, both in 0..=1.
    pub points: Vec<(f64, f64)>,
}

/// A calibration chart: observed frequency against predicted probability for each series,
/// with the diagonal of a perfect model; `note` goes under the title.
pub fn calibration(series: &[Calibration], title: &str, note: &str) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (560, 580)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (head, body) = root.split_vertically(48);
        head.draw(&Text::new(title, (12, 8), ("sans-serif", 15)))
            .map_err(err)?;
        head.draw(&Text::new(
            note,
            (12, 28),
            ("sans-serif", 11).into_font().color(&RGBColor(68, 68, 68)),
        ))
        .map_err(err)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(0.0..1.0, 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("predicted probability")
            .y_desc("observed frequency")
            .x_labels(11)
            .y_labels(11)
            .max_light_lines(1)
            .label_style(("sans-serif", 11))
            .x_label_formatter(&|v| format!("{v:.1}"))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.4)))
            .map_err(err)?;
        for s in series {
            let color = s.color;
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(err)?
                .label(s.name)
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
            chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 12))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_chart_draws_every_point_of_the_curve_under_its_title() {
        let curve: Vec<(f64, f64)> = (0..=20)
            .map(|e| (e as f64, 0.1 / (1.0 + e as f64)))
            .collect();
        let svg = line_chart(&curve, "Texel loss, 12 positions", "epoch", "loss").unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Texel loss, 12 positions"));
        let line = svg
            .lines()
            .find(|l| l.contains("<polyline") && l.contains("#DC143C"))
            .expect("the curve");
        let points = line
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split_whitespace().count(), curve.len(), "{line}");
    }

    #[test]
    fn the_calibration_chart_has_a_point_and_a_legend_entry_per_bin_and_series() {
        let series = [
            Calibration {
                name: "win",
                color: RGBColor(220, 20, 60),
                points: vec![(0.1, 0.12), (0.5, 0.48), (0.9, 0.91)],
            },
            Calibration {
                name: "draw",
                color: RGBColor(128, 128, 128),
                points: vec![(0.2, 0.25), (0.4, 0.38)],
            },
        ];
        let svg = calibration(&series, "WDL model calibration", "bins of 5 %").unwrap();
        assert!(svg.contains("WDL model calibration") && svg.contains("bins of 5 %"));
        for (s, fill) in [(&series[0], "#DC143C"), (&series[1], "#808080")] {
            assert!(svg.lines().any(|l| l.trim() == s.name), "legend {}", s.name);
            let circles = svg
                .lines()
                .filter(|l| l.contains("<circle") && l.contains(&format!("fill=\"{fill}\"")))
                .count();
            // The bins, and the legend's marker.
            assert_eq!(circles, s.points.len() + 1, "{}", s.name);
        }
    }
}
