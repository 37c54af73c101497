//! A [`Seat`] backed by a program over pipes: lines to its stdin, answers from its stdout,
//! with the answer wait bounded by the time left in the budget.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::protocol::Command;
use super::referee::{Seat, SeatFault};

/// A running bot program (`sh -c <command>`), stderr discarded.
#[derive(Debug)]
pub struct ProcessSeat {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    answers: Receiver<String>,
}

impl ProcessSeat {
    /// Starts `command` through `sh -c`.
    ///
    /// # Errors
    /// The spawn error if the shell cannot be started.
    pub fn spawn(command: &str) -> std::io::Result<ProcessSeat> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().map(BufWriter::new);
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        // Bounded: a program flooding its output blocks instead of filling memory.
        let (tx, answers) = mpsc::sync_channel(256);
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(ProcessSeat {
            child,
            stdin,
            answers,
        })
    }

    fn write(&mut self, line: &str, flush: bool) -> Result<(), SeatFault> {
        let w = self
            .stdin
            .as_mut()
            .ok_or_else(|| SeatFault::Crash("input closed".into()))?;
        writeln!(w, "{line}").map_err(|e| SeatFault::Crash(format!("write failed: {e}")))?;
        if flush {
            w.flush()
                .map_err(|e| SeatFault::Crash(format!("write failed: {e}")))?;
        }
        Ok(())
    }
}

impl Seat for ProcessSeat {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        self.write(line, false)
    }

    fn ask(&mut self, command: Command, time_left: Duration) -> Result<String, SeatFault> {
        self.write(&command.to_string(), true)?;
        match self.answers.recv_timeout(time_left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(SeatFault::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                Err(SeatFault::Crash("output closed (exited?)".into()))
            }
        }
    }

    fn close(&mut self) {
        if let Some(mut w) = self.stdin.take() {
            let _ = w.flush();
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(2)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ProcessSeat {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
