//! `cardgames-play`: a person plays Coup, Durak or Ioiwari against this project's bots, in
//! the terminal or (`--web`) in a browser; the game is saved in the server's JSON
//! (`docs/play.md`). The logic is `cardgames::play`.

use std::path::PathBuf;
use std::process::ExitCode;

use cardgames::play::{self, GameKind, Options};
use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Which {
    Coup,
    Durak,
    Ioiwari,
}

/// Play a game against the bots the servers run: Coup (against coup-bot's search), Durak 2
/// vs 2 (you, a bot partner, two bot opponents) or Ioiwari (against the optimal player).
///
/// The moves are numbered and named; type a number or the move's protocol code. Ctrl-D or
/// Ctrl-C ends the game and saves it as it stands. Every game is saved in the server's JSON
/// (coup-arbiter, durak-server, ioiwari-referee), with its report and replay page beside it.
/// Exit status: 0 after a finished game, 130 when you left it (saved as your forfeit), 2 on
/// bad arguments or a file that cannot be written.
#[derive(Parser, Debug)]
#[command(name = "cardgames-play", version)]
struct Args {
    /// The game.
    #[arg(value_enum)]
    game: Which,
    /// The game's seed: the deal and every bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Your seat, 1-based: Coup 1 (you move first) or 2; Durak 1 to 4 (your partner sits
    /// two seats on); Ioiwari player 1 or 2.
    #[arg(long, default_value_t = 1)]
    seat: usize,
    /// A bot setting, KEY=VALUE, repeatable: strategy=NAME (Coup: search, honest, calculator...;
    /// Durak: deep, search, heuristic, greedy, random; Ioiwari: optimal, random, greedy),
    /// Durak partner=NAME and opponents=NAME, and the search's own settings (Coup: as
    /// coup-bot --search takes them; Durak: as durak-bot --deep takes them).
    #[arg(long = "bot", value_name = "KEY=VALUE")]
    bot: Vec<String>,
    /// After each bot move, show why it chose it (the values it weighed, what it believes
    /// you hold).
    #[arg(long)]
    explain: bool,
    /// Serve the game in a browser on 127.0.0.1 (a free port; the URL printed carries a
    /// random token) instead of the terminal.
    #[arg(long)]
    web: bool,
    /// Where to save the game (default cardgames-play-GAME-SEED.json); its report goes
    /// beside it with .html, and the replay page in its -games folder.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = cardgames::child::parse_args::<Args>();
    let game = match args.game {
        Which::Coup => GameKind::Coup,
        Which::Durak => GameKind::Durak,
        Which::Ioiwari => GameKind::Ioiwari,
    };
    let opts = Options {
        game,
        seed: args.seed,
        seat: args.seat,
        bot: args.bot,
        explain: args.explain,
        save: args
            .save
            .unwrap_or_else(|| play::default_save(game, args.seed)),
    };
    let result = play::install_interrupt().and_then(|()| {
        if args.web {
            play::web::serve(opts)
        } else {
            play::play(&opts, &mut play::terminal::Terminal::new())
        }
    });
    match result {
        Ok(ending) if ending.left => ExitCode::from(130),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            cardgames::diag!("cardgames-play: {e}");
            ExitCode::from(2)
        }
    }
}
