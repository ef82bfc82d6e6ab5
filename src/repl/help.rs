//! What `:help` says: the session's commands, and a page for each verb and topic.

use takeaway_core::defaults;

/// `:help` and `:help TOPIC`.
pub fn help(topic: &str) -> String {
    let text = match topic.trim_start_matches(':') {
        "" => HELP,
        "solve" => "solve POSITION [--last N] [--format json] [--max-states N]\n  outcome (P or N), Grundy value and every winning move of a position of the current game.\n  Positions are numbers separated by spaces or commas: solve 41 163 13\n",
        "table" => "table [N] [--remoteness] [--by-last] [--format json] [--max-states N]\n  outcome and Grundy value of one pile of 0..N (default {table_upto}); for two-pile games every pair up\n  to N. Also: table --upto N. For games that read `last`, --by-last adds the values of one\n  pile of n after a previous move of 1..N\n",
        "period" => "period [N] [--checkpoint FILE] [--format json]\n  octal and subtraction games: one pile's values until Guy and Smith's theorem (or the\n  subtraction-game theorem) proves their period, at most N values (default {period_upto}); Ctrl-C\n  stops it, and with --checkpoint the values are kept to go on from\n",
        "quotient" => "quotient [N] [--format json]\n  the misère quotient of a misère heap game, heaps 0..N (default {quotient_heaps}): generators, relations,\n  the P-portion and Φ(n), the element each heap pretends to be; whether Φ's period is proven\n",
        "explain" => "explain POSITION [--last N] [--all] [--format json]\n  how the answer follows: the mex of the options, the nim-sum column by column, Schwenk's\n  sequence for take ≤ f(last) games, and for a P-position a winning reply to every move;\n  for one pile the winning moves, and with --all the values G(0..n-1) the options read\n",
        "compare" => "compare NAME [--upto N] [--shift K]\n  the first pile size where the current game and NAME differ (NAME read at n + K), or\n  identical up to N. NAME is a game of the session, a game file, or a bundled game (Kayles)\n",
        "play" => "play POSITION [--first you|computer] [--strength 0-100] [--seed N]\n  a game against the computer; type a move's number or `to` and the position; hint, undo,\n  moves, quit\n",
        "plot" => "plot [N] [-o FILE.svg]\n  the Grundy values of 0..N (default {plot_upto}), or for two piles a map of the P-positions, as SVG\n",
        "check" => "check\n  silent when the current game is right (a definition is checked when it is made)\n",
        "set" => "set NAME = VALUE\n  changes a parameter of the current game without retyping it: set k = 5\n",
        "load" => ":load FILE\n  reads a game file; its game becomes the current one\n",
        "games" => ":games\n  the games of this session; * marks the current one\n",
        "use" => ":use NAME\n  makes another game of the session the current one\n",
        "show" => ":show\n  the current game's text, with the values given by set (or the definition still open)\n",
        "save" => ":save FILE [--force]\n  writes the current game's text, with the values given by set, to a game file; an existing\n  file only with --force\n",
        "rules" => ":rules\n  the current game's rules, numbered, for :drop and :replace\n",
        "drop" => ":drop N\n  removes rule N of the current game (:rules numbers them); a game left without a move\n  is refused, and stays as it was\n",
        "replace" => ":replace N RULE\n  puts RULE in the place of rule N: :replace 2 move: take 1..4\n",
        "cancel" => ":cancel\n  drops a definition still open (an empty line ends it instead, saying what it lacks)\n",
        "quit" => ":quit (or Ctrl-D)\n  ends the session\n",
        "language" | "game" | "move" => "A game is a few lines:\n  game \"TAG\"\n  param k = 3\n  pile                  (or piles, piles 2, rows, coins)\n  move: take 1..k       (take ≤ 2·last, take 1 or 3, split unequal, take 1..2, then split, octal 0.77,\n                         take k from one pile and l from the other where k ≤ l < k + 2,\n                         turn 1..3 coins, turn any coins, consecutive)\n  first move: take 1..n-1\n  left move: take 1 or 3   right move: take 2 or 3   (a partizan game: Left and Right differ)\n  play misère\nThe definition ends when it has a board and a move; later move: lines add to the current game.\nTwo games of the session (or game files) make a game on cells (x, y):\n  game \"corners\"\n  tartan product of \"twins\" and \"twins\"     (or acrostic product of …)\nThe manual has the whole reference (docs/src/language.md).\n",
        "misère" | "misere" => "play misère\n  a line of the game: whoever makes the last move loses. Outcomes come from the misère\n  quotient (Plambeck and Siegel) where the game is a heap game: `quotient` shows it, and\n  `table` gives the outcomes with the genus and G⁻ columns. Misère Nim follows Bouton's\n  rule except when every pile is 0 or 1. Try: :load games/misere-kayles.game, then table 30\n",
        "partizan" => "left move: …   right move: …\n  lines of the game that only Left (or only Right) may play make it partizan: positions\n  have outcomes L (Left wins), R, N (whoever moves wins) and P, and under normal play a\n  canonical value ({…|…}, numbers, ↑, *). solve, table, explain, plot and play work;\n  quotient, period and compare are for impartial games. Try: :load games/partizan-subtraction.game\n",
        _ => "no help on that; try :help, :help solve, :help table, :help set, :help language, :help misère, :help partizan\n",
    };
    // The numbers a page gives as defaults are the engine's.
    text.replace("{table_upto}", &defaults::TABLE_UPTO.to_string())
        .replace("{period_upto}", &takeaway_core::render::grouped(defaults::PERIOD_UPTO))
        .replace("{quotient_heaps}", &defaults::QUOTIENT_HEAPS.to_string())
        .replace("{plot_upto}", &defaults::PLOT_UPTO.to_string())
}

const HELP: &str = "Define a game over a few lines, then ask about it:
  game \"my variant\"          starts a definition; it ends when it has a board and a move
  pile                       then more move: lines, param lines, play misère change it
  move: take 1..3
Queries, with the command line's words:
  solve 10                   outcome, Grundy value, winning moves
  table 40                   one pile of 0..40
  explain 10                 how the answer follows, step by step
  compare Kayles --upto 50   where the current game and another first differ
  play 21                    a game against the computer
  plot 60 -o values.svg      the values as a picture
  check                      silent when the current game is right
  set k = 5                  change a parameter
Session commands:
  :load FILE   :save FILE   :games   :use NAME   :show   :cancel   :help [TOPIC]   :quit
A definition stays open (prompt ...>) until it has a board and a move; a wrong line is left
out and the rest kept; an empty line ends it, :cancel drops it.
Ctrl-C cancels a long computation (or clears the line); Ctrl-D ends the session.
";
