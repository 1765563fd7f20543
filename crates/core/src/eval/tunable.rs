//! Evaluations as weighted sums of terms, so that the tuner can fit the weights.
//!
//! A tunable game computes its static value by feeding its terms to a [`Terms`] sink: each
//! term is a weight index and how often the weight counts (from the first player's view),
//! plus fixed contributions that are not fitted (e.g. "wins next move"). The engine sums
//! them with the checked-in weights ([`Sum`], inlined: the hot path pays one multiply-add
//! per term); the tuner records them ([`Coefficients`]).

use crate::eval::Evaluate;

/// Receives an evaluation's terms.
pub trait Terms {
    /// Weight `weight` counts `count` times (negative for the second player's terms).
    fn add(&mut self, weight: usize, count: i32);
    /// A contribution that is not fitted, in the evaluation's units.
    fn fixed(&mut self, value: i32);
}

/// The engine's sink: the weighted sum with fixed weights.
#[derive(Clone, Copy, Debug)]
pub struct Sum<'a> {
    /// The weights.
    pub weights: &'a [i32],
    /// The sum so far.
    pub total: i32,
}

impl<'a> Sum<'a> {
    /// An empty sum over `weights`.
    #[inline(always)]
    pub fn new(weights: &'a [i32]) -> Sum<'a> {
        Sum { weights, total: 0 }
    }
}

impl Terms for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, weight: usize, count: i32) {
        self.total += self.weights[weight] * count;
    }
    #[inline(always)]
    fn fixed(&mut self, value: i32) {
        self.total += value;
    }
}

/// The tuner's sink: how often each weight counts, and the fixed part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coefficients {
    /// `(weight, count)` pairs, possibly repeated.
    pub counts: Vec<(u32, i32)>,
    /// The sum of the fixed contributions.
    pub offset: i32,
}

impl Coefficients {
    /// The pairs with repeated weights added up and zero counts dropped, by weight.
    pub fn merged(mut self) -> Coefficients {
        self.counts.sort_unstable_by_key(|&(w, _)| w);
        let mut out: Vec<(u32, i32)> = Vec::with_capacity(self.counts.len());
        for (w, c) in self.counts {
            match out.last_mut() {
                Some(last) if last.0 == w => last.1 += c,
                _ => out.push((w, c)),
            }
        }
        out.retain(|&(_, c)| c != 0);
        Coefficients {
            counts: out,
            offset: self.offset,
        }
    }
}

impl Terms for Coefficients {
    fn add(&mut self, weight: usize, count: i32) {
        if count != 0 {
            self.counts.push((weight as u32, count));
        }
    }
    fn fixed(&mut self, value: i32) {
        self.offset += value;
    }
}

/// A game whose static evaluation is a weighted sum of terms (see the module
/// documentation). `Evaluate::evaluate` must equal [`Tunable::terms`] summed with
/// [`Tunable::weights`] (clamped into the evaluation's limits).
pub trait Tunable: Evaluate {
    /// The weights the evaluation uses (the checked-in, generated ones).
    fn weights() -> &'static [i32];
    /// The hand-set weights the tuner starts from (and holds the ridge penalty toward), so
    /// that a fit is reproduced from the data alone, whatever the weights in use.
    fn start_weights() -> &'static [i32];
    /// A name per weight, in index order (for the generated file and reports).
    fn weight_names() -> Vec<String>;
    /// The file (from the repository root) that holds the generated weights.
    const WEIGHTS_FILE: &'static str;
    /// Feeds the static evaluation's terms of this (non-terminal) position to `terms`.
    fn terms<T: Terms>(&self, terms: &mut T);
}

/// Renders the generated weights file: the weights with their names, and `origin`, the
/// lines saying where they come from (each becomes `//!` lines, wrapped at its words to
/// 100 columns).
pub fn render_weights(names: &[String], weights: &[i32], origin: &[&str]) -> String {
    let mut text = String::new();
    for line in origin {
        // Each origin line wrapped at the words to fit 100 columns with its `//! `.
        let mut row = String::new();
        for word in line.split(' ') {
            if !row.is_empty() && row.len() + 1 + word.len() > 96 {
                text.push_str(&format!("//! {row}\n"));
                row.clear();
            }
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(word);
        }
        text.push_str(&format!("//! {row}\n"));
    }
    text.push('\n');
    text.push_str("/// The evaluation's weights, indexed as `eval.rs` names them.\n");
    text.push_str(&format!(
        "pub(super) const WEIGHTS: [i32; {}] = [\n",
        weights.len()
    ));
    // Laid out as rustfmt lays it out (trailing comments aligned), so `cargo fmt` leaves
    // the generated file as it is.
    let width = weights
        .iter()
        .map(|w| format!("{w},").len())
        .max()
        .unwrap_or(0);
    for (name, w) in names.iter().zip(weights) {
        text.push_str(&format!("    {:<width$} // {name}\n", format!("{w},")));
    }
    text.push_str("];\n");
    text
}

/// A tunable evaluation reached without naming its game: what `quartet tune` needs, as plain
/// functions ([`crate::eval::Evaluate::TUNABLE`]).
pub struct TunableEval<G> {
    /// [`Tunable::weights`].
    pub weights: fn() -> &'static [i32],
    /// [`Tunable::start_weights`].
    pub start_weights: fn() -> &'static [i32],
    /// [`Tunable::weight_names`].
    pub weight_names: fn() -> Vec<String>,
    /// [`Tunable::WEIGHTS_FILE`].
    pub weights_file: &'static str,
    /// Records a position's terms ([`Tunable::terms`] into [`Coefficients`]).
    pub record: fn(&G, &mut Coefficients),
}

impl<G: Tunable> TunableEval<G> {
    /// The functions of `G`'s [`Tunable`] implementation.
    pub const fn of() -> TunableEval<G> {
        TunableEval {
            weights: G::weights,
            start_weights: G::start_weights,
            weight_names: G::weight_names,
            weights_file: G::WEIGHTS_FILE,
            record: record_terms::<G>,
        }
    }
}

/// [`Tunable::terms`] into a [`Coefficients`] sink.
fn record_terms<G: Tunable>(pos: &G, sink: &mut Coefficients) {
    pos.terms(sink);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_coefficients_agree() {
        let weights = [3, -5, 7];
        let feed = |t: &mut dyn FnMut(usize, i32)| {
            t(0, 2);
            t(2, -1);
            t(0, 1);
            t(1, 0);
        };
        let mut sum = Sum::new(&weights);
        feed(&mut |w, c| sum.add(w, c));
        sum.fixed(10);
        let mut co = Coefficients::default();
        feed(&mut |w, c| co.add(w, c));
        co.fixed(10);
        let co = co.merged();
        assert_eq!(co.counts, vec![(0, 3), (2, -1)]);
        let dot: i32 = co
            .counts
            .iter()
            .map(|&(w, c)| weights[w as usize] * c)
            .sum();
        assert_eq!(sum.total, dot + co.offset);
        assert_eq!(sum.total, 3 * 3 - 7 + 10);
    }

    #[test]
    fn the_weights_file_lists_every_weight_with_its_name() {
        let text = render_weights(
            &["a".into(), "b[1]".into()],
            &[12, -3],
            &["made by `quartet tune x`"],
        );
        assert!(text.contains(
            "pub(super) const WEIGHTS: [i32; 2] = [\n    12, // a\n    -3, // b[1]\n];\n"
        ));
        assert!(text.starts_with("//! made by `quartet tune x`\n\n"));
    }

    #[test]
    fn a_long_origin_line_is_wrapped_at_its_words_within_100_columns() {
        let words: Vec<String> = (0..40).map(|i| format!("--flag{i}")).collect();
        let line = words.join(" ");
        let text = render_weights(&["a".into()], &[1], &[line.as_str()]);
        let origin: Vec<&str> = text.lines().take_while(|l| l.starts_with("//! ")).collect();
        assert!(origin.len() > 1, "{text}");
        assert!(origin.iter().all(|l| l.len() <= 100), "{text}");
        let rejoined: Vec<&str> = origin.iter().map(|l| &l[4..]).collect();
        assert_eq!(rejoined.join(" "), line);
    }
}
