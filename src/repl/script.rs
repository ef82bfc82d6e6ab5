//! A session run from a script or a pipe: no prompts, no colour, one result per command.

use std::io::{BufRead, Write};

use takeaway_core::render::diagnostic as render;

use super::{Reply, Session};

/// Runs a whole session from `input` without a terminal: no prompts, no colour, one result
/// per command. Returns false when any command failed.
pub fn run_script(session: &mut Session, input: impl BufRead, out: &mut impl Write, err: &mut impl Write) -> bool {
    let mut all_ok = true;
    /// Writes a reply; true when the session should end.
    fn report(reply: Reply, all_ok: &mut bool, out: &mut impl Write, err: &mut impl Write) -> bool {
        let _ = out.write_all(reply.output.as_bytes());
        if reply.is_error() {
            *all_ok = false;
            let _ = err.write_all(reply.error.as_bytes());
        }
        let _ = out.flush();
        reply.quit
    }
    let mut lines = input
        .split(b'\n')
        .map_while(Result::ok)
        .map(|l| String::from_utf8_lossy(&l).trim_end_matches('\r').to_string());
    while let Some(line) = lines.next() {
        let mut reply = session.feed(&line);
        let play = reply.play.take();
        if report(reply, &mut all_ok, out, err) {
            return all_ok;
        }
        if let Some(p) = play {
            // The game reads its moves from the lines that follow.
            let mut next_line = || lines.next();
            if let Err(e) = crate::play::play(&p, &mut next_line, out) {
                all_ok = false;
                let _ = err.write_all(render(&e, Some(&p.loaded.source), false).as_bytes());
            }
        }
    }
    if !session.pending.is_empty() {
        // The input ended inside a definition: ending it reports what is missing.
        let reply = session.feed("");
        report(reply, &mut all_ok, out, err);
    }
    all_ok
}
