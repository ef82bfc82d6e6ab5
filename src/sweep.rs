//! `takeaway sweep`: a family of games swept on this machine's cores (the engine's `sweep`), or
//! on a Dask cluster by the Python package (`--scheduler`), one row a game.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use clap::Args;
use serde_json::{json, Map, Value};
use takeaway_core::{sweep, Budget, BudgetArgs, CancelToken, Failure, GameText, Progress, SweepArgs};

use crate::terminal::Failed;
use crate::verbs::{count, count_usize, Format};

// The arguments of `takeaway sweep` (a plain comment: clap would make a doc comment the
// subcommand's about, in place of the line its enum variant gives).
#[derive(Args, Debug)]
pub struct SweepCli {
    /// game files: each one a game of the family, or with --each the one game whose parameter is swept
    files: Vec<PathBuf>,
    /// every octal code with 1 up to D digits after the point (4: the 8,190 codes 0.1 … 4.7777)
    #[arg(long, value_name = "D")]
    octal: Option<u8>,
    /// with --octal: only the codes of at least K digits (--octal 4 --at-least 4: the 7,168 four-digit codes)
    #[arg(long, value_name = "K", requires = "octal")]
    at_least: Option<u8>,
    #[arg(long, value_name = "DIGITS", value_delimiter = ',', help = format!(
        "the digits before the point of --octal's codes, such as 0 or 0,4 [default: {}]",
        takeaway_core::defaults::SWEEP_LEADING.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
    ))]
    leading: Vec<u8>,
    /// octal codes named one by one: 0.16,0.354,4.337 (.161 is 0.161)
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    codes: Vec<String>,
    /// the game file's parameter, one game for each: k=1..20, or "S={1,2,5}" (repeatable)
    #[arg(long, value_name = "NAME=VALUE")]
    each: Vec<String>,
    #[arg(long, value_name = "N", value_parser = count, help = format!(
        "values computed for each game at most, unless a period is proven first [default: {}]",
        takeaway_core::defaults::SWEEP_UPTO
    ))]
    upto: Option<u64>,
    /// the rows file, written as each game finishes (.jsonl: JSON lines; CSV otherwise); run
    /// the same command again to go on from the rows there
    #[arg(long, short = 'o', value_name = "FILE")]
    out: Option<PathBuf>,
    /// a folder for the games' checkpoints: a game stopped by --timeout goes on from its values
    #[arg(long, value_name = "DIR")]
    checkpoints: Option<PathBuf>,
    /// games run at once [default: the machine's cores; at most four a core, and no more than the games]
    #[arg(long, value_name = "N", value_parser = count_usize)]
    workers: Option<usize>,
    /// each row (a .jsonl rows file) carries how often each value occurs among the first 2^k
    /// values, for every power of two computed
    #[arg(long)]
    histograms: bool,
    /// a Dask scheduler's address (tcp://HOST:8786): the games run on its workers, through the
    /// Python package (pip install takeaway[dask])
    #[arg(long, value_name = "ADDRESS")]
    scheduler: Option<String>,
    /// each game's time, in seconds: a game past it is a row saying how far it got
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// each game's work: as `period --max-states`
    #[arg(long, value_name = "N", value_parser = count_usize)]
    max_states: Option<usize>,
    /// output format: text (a line a game as it finishes), json (JSON lines) or csv, in the family's order
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

impl SweepCli {
    /// The request, as the engine's schema takes it: only what was typed.
    fn request(&self) -> Result<Map<String, Value>, Failure> {
        let mut args = Map::new();
        let mut put = |k: &str, v: Value| {
            args.insert(k.to_string(), v);
        };
        if let Some(d) = self.octal {
            put("octal", json!(d));
        }
        if let Some(k) = self.at_least {
            put("at_least", json!(k));
        }
        if !self.leading.is_empty() {
            put("leading", json!(self.leading));
        }
        if !self.codes.is_empty() {
            put("codes", json!(self.codes));
        }
        let texts = self
            .files
            .iter()
            .map(|path| {
                let text = takeaway_core::read_game_text(path).map_err(|e| Failure::one(e, None))?;
                Ok(GameText { source: text, name: Some(path.display().to_string()), settings: Default::default() })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        if self.each.is_empty() {
            if !texts.is_empty() {
                put("games", json!(texts));
            }
        } else {
            match texts.as_slice() {
                [one] => put("game", json!(one)),
                _ => {
                    return Err(Failure::one(
                        takeaway_core::errors::RequestError::Invalid {
                            verb: "sweep",
                            argument: "each",
                            reason: "--each sweeps one game file's parameter: name exactly one file".into(),
                        },
                        None,
                    ))
                }
            }
            put("each", json!(self.each));
        }
        if let Some(n) = self.upto {
            put("upto", json!(n));
        }
        if let Some(p) = &self.out {
            put("out", json!(p));
        }
        if let Some(p) = &self.checkpoints {
            put("checkpoints", json!(p));
        }
        if let Some(n) = self.workers {
            put("workers", json!(n));
        }
        if self.histograms {
            put("histograms", json!(true));
        }
        Ok(args)
    }

    fn budget(&self) -> BudgetArgs {
        BudgetArgs { timeout: self.timeout, max_states: self.max_states, ..BudgetArgs::default() }
    }
}

/// Runs `takeaway sweep`.
pub(crate) fn main(cli: SweepCli, cancel: CancelToken, color: bool) -> Result<(), Failed> {
    // A sweep of one game (a record run) shows its progress on a terminal.
    let bar = crate::progress_bar::ProgressBar::new();
    let clear = || {
        if let Some(bar) = &bar {
            bar.clear();
        }
    };
    let failed = |f: Failure| {
        clear();
        eprint!("{}", f.render(color));
        Failed
    };
    let request = cli.request().map_err(failed)?;
    let args = SweepArgs::parse(request.clone()).map_err(failed)?;
    Budget::from_args(&cli.budget()).map_err(|e| failed(Failure::one(e, None)))?;
    if let Some(address) = &cli.scheduler {
        return on_dask(address, &request, &cli.budget(), cli.format);
    }
    let text = cli.format == Format::Text;
    let lines = std::sync::Mutex::new(std::io::stdout());
    let mut question = Budget::new().cancel(cancel);
    if let Some(bar) = &bar {
        question = question.progress(Progress::to(bar.clone()));
    }
    let report = sweep(&args, &cli.budget(), &question, &|row| {
        clear();
        if text {
            let mut out = lines.lock().unwrap_or_else(|p| p.into_inner());
            let _ = writeln!(out, "{}", takeaway_core::render::printable(&takeaway_core::render::sweep_row_line(row)))
                .and_then(|()| out.flush());
        }
    })
    .map_err(failed)?;
    clear();
    let mut out = std::io::stdout().lock();
    let printed = match cli.format {
        Format::Text => takeaway_core::render::sweep_summary(&report.rows, report.resumed, cli.out.as_deref()),
        Format::Json => takeaway_core::render::sweep_rows(&report.rows, takeaway_core::RowsFormat::JsonLines),
        Format::Csv => takeaway_core::render::sweep_rows(&report.rows, takeaway_core::RowsFormat::Csv),
    };
    let _ = out.write_all(takeaway_core::render::printable(&printed).as_bytes()).and_then(|()| out.flush());
    Ok(())
}

/// The sweep on a Dask cluster: the Python package's `takeaway.sweep` with a client of the
/// scheduler, given the same request.
fn on_dask(address: &str, request: &Map<String, Value>, budget: &BudgetArgs, format: Format) -> Result<(), Failed> {
    let format = match format {
        Format::Text => "text",
        Format::Json => "json",
        Format::Csv => "csv",
    };
    let python = std::env::var("TAKEAWAY_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let status = Command::new(&python)
        // `-I`: the current folder is never on the import path, so a `takeaway/` or `json.py`
        // planted there is not run; nor are PYTHON* variables read.
        .args(["-I", "-m", "takeaway._sweep", "--scheduler", address, "--format", format, "--request"])
        .arg(Value::Object(request.clone()).to_string())
        .arg("--budget")
        .arg(serde_json::to_string(budget).unwrap_or_default())
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(_) => Err(Failed),
        Err(e) => {
            eprintln!(
                "takeaway::sweep::no_python\n\n  × cannot run {python}: {e}\n  help: --scheduler runs the sweep through the Python package (pip install takeaway with dask[distributed]); set TAKEAWAY_PYTHON to its interpreter"
            );
            Err(Failed)
        }
    }
}
