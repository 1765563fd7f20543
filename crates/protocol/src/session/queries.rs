//! The read-only commands: `uci`/`ugi` identification, `d`, `query` and `help`.

use super::{ENGINE_AUTHOR, ENGINE_NAME, Session};
use crate::command::{Query, Side};
use crate::options;
use crate::response::{error, response};
use quartet_core::game::{Node, Player};
use quartet_core::notation::player_token;
use quartet_engine::outcome_text;

impl Session {
    pub(super) fn identify(&self, ok: &str) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for line in options::declarations(&self.defaults) {
            self.out.line(&line);
        }
        self.out.line(ok);
    }

    pub(super) fn display(&self) {
        for line in self.game.diagram().lines() {
            self.out.line(line);
        }
        self.out.line(&format!("Fen: {}", self.game.fen()));
        self.out.line(&format!("Key: {:016X}", self.game.hash()));
    }

    pub(super) fn query(&self, q: Query) {
        let node = self.game.node();
        let text = match q {
            Query::GameOver => matches!(node, Node::Terminal(_)).to_string(),
            Query::P1Turn => (node == Node::Simultaneous
                || self.game.acting_player() == Some(Player::First))
            .to_string(),
            Query::Result => match node {
                Node::Terminal(o) => outcome_text(o).to_string(),
                _ => "none".to_string(),
            },
            Query::Fen => self.game.fen(),
            Query::Node => node_text(node, self.game.acting_player()),
            Query::Reason => self
                .game
                .end_reason()
                .map_or("none".to_string(), |r| format!("{} {}", r.token, r.words)),
            Query::Position => self.game.describe(),
            Query::IsLegal(token, None) => self.game.is_legal(&token).to_string(),
            Query::IsLegal(token, Some(side)) => match self.side_refused(side) {
                Some(why) => {
                    self.out.line(&error(&format!("query islegal: {why}")));
                    "false".to_string()
                }
                None => self
                    .game
                    .is_legal_declaration(&token, player_of(side))
                    .to_string(),
            },
            Query::LegalMoves(Some(side)) => match self.side_refused(side) {
                Some(why) => {
                    self.out.line(&error(&format!("query legalmoves: {why}")));
                    String::new()
                }
                None => self.game.legal_tokens(Some(player_of(side))).join(" "),
            },
            Query::LegalMoves(None) => self.game.legal_tokens(None).join(" "),
            Query::Chance => self
                .game
                .chance_tokens()
                .iter()
                .map(|(token, weight)| format!("{token}:{weight}"))
                .collect::<Vec<_>>()
                .join(" "),
            Query::WinChance => self.game.declaration().win_chance.answer(),
        };
        self.out.line(&response(&text));
    }

    /// Why a side may not be named in a query of this game (only simultaneous games have
    /// one side's declarations).
    pub(super) fn side_refused(&self, side: Side) -> Option<String> {
        (!self.game.declaration().nodes.simultaneous).then(|| {
            let letter = match side {
                Side::White => 'w',
                Side::Black => 'b',
            };
            format!(
                "'{letter}': {} has no simultaneous turns, so no side's declarations (leave the \
                side out)",
                self.game.name()
            )
        })
    }

    pub(super) fn help(&self) {
        for line in HELP.lines() {
            self.out.line(line);
        }
    }
}

/// `query node`'s answer: `turn p1`, `chance p2`, `simultaneous` or `over`.
fn node_text(node: Node, acting: Option<Player>) -> String {
    let who = acting.map_or("", player_token);
    match node {
        Node::Turn(_) => format!("turn {who}"),
        Node::Chance => format!("chance {who}"),
        Node::Simultaneous => "simultaneous".to_string(),
        Node::Terminal(_) => "over".to_string(),
    }
}

/// The player a side letter names.
pub(super) fn player_of(side: Side) -> Player {
    match side {
        Side::White => Player::First,
        Side::Black => Player::Second,
    }
}

const HELP: &str = "\
Commands (protocol.md has the exact forms):
  uci | ugi                      identify, list the options, end with uciok | ugiok
  isready                        answered with readyok once the lines before it are done
  debug on|off                   accepted (Quartet prints no extra debug lines)
  register ...                   accepted (nothing to register)
  setoption name <N> [value <V>] e.g. setoption name Game value rnb
  ucinewgame | uginewgame        forget earlier games
  position startpos|fen <F> [moves <m1> <m2> ...]
  go [limits]                    search; limits, any of:
       wtime|btime|p1time|p2time MS   winc|binc|p1inc|p2inc MS   movestogo N
       depth N   nodes N   mate N   movetime MS   infinite   ponder
       searchmoves <m1> <m2> ...   side w|b (Apocalypse)
  go perft N                     count the leaves N plies deep
  ponderhit                      the pondered move was played: search on, on the clock
  stop                           end the search; its bestmove follows
  quit                           end the program
  d                              show the board
  query gameover|p1turn|result|fen|node|reason|position|chance|winchance
        |islegal <m> [w|b]|legalmoves [w|b]
  help                           this list
Lines starting with # are comments.";

#[cfg(test)]
mod tests {
    use super::HELP;
    use crate::parse::{COMMANDS, GO_PARAMETERS};

    #[test]
    fn help_names_every_command_and_every_go_parameter() {
        let words: Vec<&str> = HELP.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        for word in COMMANDS.iter().chain(GO_PARAMETERS.iter()) {
            assert!(words.contains(word), "help does not name '{word}'");
        }
    }
}
