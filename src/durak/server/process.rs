//! A [`Player`] backed by a program over pipes: lines to its stdin, answers from its stdout,
//! with the answer wait bounded by the time left in the budget. The process handling
//! (own process group killed whole, bounded lines and output) is [`crate::child`]'s.

use std::time::Duration;

use super::referee::{Player, SeatFault};
use crate::child::{self, quote, Fault, Limits, Spec, Stderr};
use crate::durak::protocol::Command;

/// How long a program may take to exit after its input is closed at the end of a game.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// A running bot program (`sh -c <command>`) in its own process group, stderr discarded.
#[derive(Debug)]
pub struct ProcessSeat {
    child: Option<child::Child>,
}

impl ProcessSeat {
    /// Starts `command` through `sh -c`, stdout lines at most 4 KiB and 1 MiB in all per
    /// game, a line sent waiting at most 5 s for room in its stdin pipe
    /// ([`Limits::default`]).
    ///
    /// # Errors
    /// The spawn error if the shell cannot be started.
    pub fn spawn(command: &str) -> std::io::Result<ProcessSeat> {
        let child = Spec::shell(command)
            .stderr(Stderr::Null)
            .limits(Limits::default())
            .spawn()?;
        Ok(ProcessSeat { child: Some(child) })
    }

    fn child(&mut self) -> Result<&mut child::Child, SeatFault> {
        self.child
            .as_mut()
            .ok_or_else(|| SeatFault::Crash("already closed".into()))
    }
}

impl Player for ProcessSeat {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        self.child()?
            .send_line(line)
            .map_err(|f| SeatFault::Crash(f.to_string()))
    }

    fn ask(&mut self, command: Command, time_left: Duration) -> Result<String, SeatFault> {
        let c = self.child()?;
        // Every answer so far was taken when it was asked for: a line waiting now was
        // written unasked, and would be taken for the answer to this command.
        match c.waiting_line() {
            Ok(Some(line)) => {
                return Err(SeatFault::Unasked(format!(
                    "answered before it was asked: {}",
                    quote(line.as_bytes())
                )))
            }
            Ok(None) => {}
            Err(f) => return Err(SeatFault::Crash(f.to_string())),
        }
        c.send_line(&command.to_string())
            .map_err(|f| SeatFault::Crash(f.to_string()))?;
        match c.recv_line(time_left) {
            Ok(line) => Ok(line),
            Err(Fault::Timeout(_)) => Err(SeatFault::Timeout),
            Err(f) => Err(SeatFault::Crash(f.to_string())),
        }
    }

    fn close(&mut self) -> Option<String> {
        self.child.take().and_then(|c| c.finish(EXIT_GRACE).note())
    }
}
