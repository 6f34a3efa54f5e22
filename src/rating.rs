//! `chariot rate`: Elo ratings of several players from the games they played against each
//! other (any pairings, e.g. a ladder of skill levels and a reference engine), by maximum
//! likelihood.
//!
//! **Model** (Bradley–Terry on the logistic Elo scale, as Ordo and BayesElo use it): player
//! `i` scores against `j` on average `E = 1 / (1 + 10^((r_j − r_i) / 400))`, a draw counting as
//! half a point. The ratings maximise
//! `Σ_pairs P_ij · ln E_ij + (N_ij − P_ij) · ln(1 − E_ij)` over all pairings (`P` points of
//! `i` in `N` games) with one player's rating fixed (the anchor). Each pairing that was played
//! also gets `prior` virtual draws (default 1), so a player who won every game still has a
//! finite rating; with 100 games a pairing, one draw moves a rating by a few Elo at most.
//!
//! **Errors** come from the curvature of the log-likelihood at the maximum: the covariance of
//! the ratings is the inverse of the negative Hessian (anchor removed), so each rating's
//! ±1.96σ is its 95 % margin *relative to the anchor*. Counting a draw as half a win
//! overstates the variance of a game's result a little when draws are common, so the margins
//! are on the safe side.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use crate::matches::pgn;

/// Results between two players, from the first one's view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairResult {
    /// Games played.
    pub games: f64,
    /// Points of the first player.
    pub points: f64,
}

/// All results: players by name, and the results of each unordered pair (`i < j`).
#[derive(Clone, Debug, Default)]
pub struct ResultTable {
    /// Player names, in order of first appearance.
    pub names: Vec<String>,
    /// `(i, j)` with `i < j` → results from `i`'s view.
    pub pairs: BTreeMap<(usize, usize), PairResult>,
}

impl ResultTable {
    fn index(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_string());
                self.names.len() - 1
            }
        }
    }

    /// Adds one game: `a` scored `points` (1, ½ or 0) against `b`.
    pub fn add(&mut self, a: &str, b: &str, points: f64) {
        let (i, j) = (self.index(a), self.index(b));
        if i == j {
            return;
        }
        let (key, p) = if i < j {
            ((i, j), points)
        } else {
            ((j, i), 1.0 - points)
        };
        let r = self.pairs.entry(key).or_default();
        r.games += 1.0;
        r.points += p;
    }

    /// Adds the decided games of a PGN text (`White`/`Black` tags, result `1-0`, `0-1` or
    /// `1/2-1/2`); returns how many games were added.
    pub fn add_pgn(&mut self, text: &str) -> usize {
        let mut added = 0;
        for g in pgn::read_games(text).into_iter().flatten() {
            let points = match g.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let (Some(w), Some(b)) = (g.tag("White"), g.tag("Black")) else {
                continue;
            };
            let (w, b) = (w.to_string(), b.to_string());
            self.add(&w, &b, points);
            added += 1;
        }
        added
    }
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// Name.
    pub name: String,
    /// Elo.
    pub elo: f64,
    /// Standard error relative to the anchor (0 for the anchor).
    pub sigma: f64,
    /// Games played.
    pub games: f64,
    /// Points scored.
    pub points: f64,
}

const K: f64 = std::f64::consts::LN_10 / 400.0;

fn expected(ri: f64, rj: f64) -> f64 {
    1.0 / (1.0 + (K * (rj - ri)).exp())
}

/// Inverts a small symmetric positive definite matrix (Gauss–Jordan); `None` if singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let piv = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[piv][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, piv);
        inv.swap(col, piv);
        let d = m[col][col];
        for k in 0..n {
            m[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        m[row][k] -= f * m[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Fits the ratings of every player of `table` with player `anchor` fixed at `anchor_elo` and
/// `prior` virtual draws per played pairing. Fails if some player is not connected to the
/// anchor through played games.
pub fn fit(
    table: &ResultTable,
    anchor: usize,
    anchor_elo: f64,
    prior: f64,
) -> Result<Vec<Rating>, String> {
    let n = table.names.len();
    if anchor >= n {
        return Err("the anchor played no game".into());
    }
    // Connectivity.
    let mut reached = vec![false; n];
    reached[anchor] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &(i, j) in table.pairs.keys() {
            if reached[i] != reached[j] {
                reached[i] = true;
                reached[j] = true;
                changed = true;
            }
        }
    }
    if let Some(lost) = (0..n).find(|&i| !reached[i]) {
        return Err(format!(
            "{} is not connected to the anchor by games",
            table.names[lost]
        ));
    }
    let pairs: Vec<(usize, usize, f64, f64)> = table
        .pairs
        .iter()
        .map(|(&(i, j), r)| (i, j, r.points + prior / 2.0, r.games + prior))
        .collect();
    // Free parameters: every player but the anchor.
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let slot = |i: usize| free.iter().position(|&f| f == i);
    let mut r = vec![anchor_elo; n];
    let mut hessian = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let mut grad = vec![0.0; free.len()];
        for row in hessian.iter_mut() {
            row.iter_mut().for_each(|x| *x = 0.0);
        }
        for &(i, j, p, g) in &pairs {
            let e = expected(r[i], r[j]);
            let d = K * (p - g * e);
            let c = K * K * g * e * (1.0 - e);
            if let Some(a) = slot(i) {
                grad[a] += d;
                hessian[a][a] += c;
            }
            if let Some(b) = slot(j) {
                grad[b] -= d;
                hessian[b][b] += c;
            }
            if let (Some(a), Some(b)) = (slot(i), slot(j)) {
                hessian[a][b] -= c;
                hessian[b][a] -= c;
            }
        }
        let inv = invert(hessian.clone()).ok_or("the ratings are not determined")?;
        let mut biggest: f64 = 0.0;
        for (a, &i) in free.iter().enumerate() {
            let step: f64 = (0..free.len()).map(|b| inv[a][b] * grad[b]).sum();
            let step = step.clamp(-400.0, 400.0);
            r[i] += step;
            biggest = biggest.max(step.abs());
        }
        if biggest < 1e-6 {
            break;
        }
    }
    let cov = invert(hessian).ok_or("the ratings are not determined")?;
    let mut out: Vec<Rating> = (0..n)
        .map(|i| Rating {
            name: table.names[i].clone(),
            elo: r[i],
            sigma: slot(i).map_or(0.0, |a| cov[a][a].max(0.0).sqrt()),
            games: 0.0,
            points: 0.0,
        })
        .collect();
    for (&(i, j), res) in &table.pairs {
        out[i].games += res.games;
        out[i].points += res.points;
        out[j].games += res.games;
        out[j].points += res.games - res.points;
    }
    if out
        .iter()
        .any(|x| !x.elo.is_finite() || !x.sigma.is_finite())
    {
        return Err("the fit did not converge".into());
    }
    Ok(out)
}

/// Flags of `chariot rate`.
#[derive(Args, Debug, Clone)]
pub struct RateArgs {
    /// PGN files of games (White/Black tags name the players).
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// The anchor: `NAME=ELO` (default: the first player met, at 0).
    #[arg(long)]
    pub anchor: Option<String>,
    /// Virtual draws added to each played pairing.
    #[arg(long, default_value_t = 1.0)]
    pub prior: f64,
}

/// The rating table and the pairings, as Markdown.
pub fn report(table: &ResultTable, ratings: &[Rating], anchor: &str) -> String {
    let mut s = String::new();
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
    let _ = writeln!(s, "| player | Elo | ± 95 % | games | score |");
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for &i in &order {
        let x = &ratings[i];
        let margin = if x.name == anchor {
            "anchor".to_string()
        } else {
            format!("{:.0}", 1.96 * x.sigma)
        };
        let _ = writeln!(
            s,
            "| {} | {:.0} | {margin} | {} | {:.1} % |",
            x.name,
            x.elo,
            x.games,
            100.0 * x.points / x.games.max(1.0)
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "| pairing | games | score | expected from the ratings |");
    let _ = writeln!(s, "|---|---:|---:|---:|");
    for (&(i, j), r) in &table.pairs {
        let _ = writeln!(
            s,
            "| {} – {} | {} | {:.1} % | {:.1} % |",
            table.names[i],
            table.names[j],
            r.games,
            100.0 * r.points / r.games.max(1.0),
            100.0 * expected(ratings[i].elo, ratings[j].elo)
        );
    }
    s
}

/// Runs `chariot rate`; returns the exit code (0, or 2 on bad input).
pub fn main(args: RateArgs) -> u8 {
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("chariot rate: {e}");
            2
        }
    }
}

fn run(args: &RateArgs) -> Result<String, String> {
    if !(args.prior.is_finite() && args.prior >= 0.0) {
        return Err("--prior must be a non-negative number".into());
    }
    let mut table = ResultTable::default();
    for p in &args.pgn {
        let text =
            std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let n = table.add_pgn(&text);
        eprintln!("{}: {n} games", p.display());
    }
    if table.names.is_empty() {
        return Err("no decided game with White and Black tags".into());
    }
    let (anchor_name, anchor_elo) = match &args.anchor {
        Some(a) => {
            let (name, elo) = a.rsplit_once('=').ok_or("--anchor must be NAME=ELO")?;
            let elo: f64 = elo
                .trim()
                .parse()
                .map_err(|_| format!("bad anchor Elo '{elo}'"))?;
            (name.trim().to_string(), elo)
        }
        None => (table.names[0].clone(), 0.0),
    };
    let anchor = table
        .names
        .iter()
        .position(|n| *n == anchor_name)
        .ok_or_else(|| format!("no player named '{anchor_name}'"))?;
    let ratings = fit(&table, anchor, anchor_elo, args.prior)?;
    Ok(report(&table, &ratings, &anchor_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_get_the_elo_of_their_score() {
        let mut t = ResultTable::default();
        // 75 % over 400 games: 400·log10(3) ≈ 190.8 Elo.
        for k in 0..400 {
            t.add("A", "B", if k % 4 == 0 { 0.0 } else { 1.0 });
        }
        let r = fit(&t, 1, 1000.0, 0.0).unwrap();
        assert!((r[0].elo - 1190.85).abs() < 0.1, "{r:?}");
        assert_eq!(r[1].elo, 1000.0);
        // The binomial standard error of a 75 % score over 400 games, in Elo.
        let se = (0.75f64 * 0.25 / 400.0).sqrt() / (K * 0.75 * 0.25);
        assert!((r[0].sigma - se).abs() < 0.5, "{} vs {se}", r[0].sigma);
    }

    #[test]
    fn a_chain_of_pairings_adds_up_and_errors_grow_along_it() {
        let mut t = ResultTable::default();
        for (a, b, score) in [("L0", "L1", 0.36), ("L1", "L2", 0.36), ("L2", "L3", 0.5)] {
            for k in 0..100 {
                let won = (k as f64) < score * 100.0;
                t.add(a, b, if won { 1.0 } else { 0.0 });
            }
        }
        let r = fit(&t, 3, 0.0, 0.0).unwrap();
        let step = -400.0 * (1.0f64 / 0.36 - 1.0).log10();
        assert!((r[2].elo - 0.0).abs() < 1e-6);
        assert!((r[1].elo - step).abs() < 0.5, "{r:?}");
        assert!((r[0].elo - 2.0 * step).abs() < 1.0, "{r:?}");
        assert!(r[0].sigma > r[1].sigma && r[1].sigma > r[2].sigma);
    }

    #[test]
    fn perfect_scores_stay_finite_with_the_prior_and_islands_are_refused() {
        let mut t = ResultTable::default();
        for _ in 0..50 {
            t.add("strong", "weak", 1.0);
        }
        assert!(fit(&t, 0, 0.0, 0.0).is_err() || fit(&t, 0, 0.0, 0.0).unwrap()[1].elo < -1000.0);
        let r = fit(&t, 0, 0.0, 1.0).unwrap();
        assert!(r[1].elo < -500.0 && r[1].elo.is_finite());
        t.add("x", "y", 0.5);
        assert!(fit(&t, 0, 0.0, 1.0).is_err());
    }

    #[test]
    fn pgn_results_are_read_from_the_tags() {
        let pgn = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 1-0\n\n\
                   [White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 1/2-1/2\n\n\
                   [White \"B\"]\n[Black \"A\"]\n[Result \"*\"]\n\n1. h2e2 *\n";
        let mut t = ResultTable::default();
        assert_eq!(t.add_pgn(pgn), 2);
        assert_eq!(
            t.pairs[&(0, 1)],
            PairResult {
                games: 2.0,
                points: 1.5
            }
        );
    }
}
