//! cardgames-play tests (written below).
