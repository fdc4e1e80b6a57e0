//! A deliberately naive retrograde analysis, for the tests only: every position reachable
//! from the start (by the reference engine, `reference.rs`) in a `HashMap`, moves from the
//! reference engine alone, and values by rounds: round `n` decides exactly the positions of
//! remoteness `n`, reading only the values of earlier rounds.
//!
//! - round 0: finished positions, `Win(0)` if the player to move has won, else `Loss(0)`;
//! - round n: an undecided position with a move to `Loss(n - 1)` is `Win(n)`; one whose
//!   moves (at least one) all lead to decided wins, the longest `Win(n - 1)`, is `Loss(n)`;
//! - when a round decides nothing, no later round can (each needs a value from the round
//!   before), and whatever is undecided is a `Draw`.

use super::reference::{RefBoard, RefPos, reachable_slow};
use std::collections::HashMap;

/// From the view of the player to move; the number is the remoteness in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveValue {
    Win(u32),
    Loss(u32),
    Draw,
}

/// The value of every position reachable from the start of `(board, walls_per_player)`.
pub fn solve_naive(board: RefBoard, walls_per_player: u32) -> HashMap<RefPos, NaiveValue> {
    let all = reachable_slow(board, walls_per_player);
    let index: HashMap<&RefPos, usize> = all.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let children: Vec<Vec<usize>> = all
        .iter()
        .map(|p| {
            p.legal_actions(board)
                .into_iter()
                .map(|a| index[&p.play(board, a)])
                .collect()
        })
        .collect();
    let mut value: Vec<Option<NaiveValue>> = all
        .iter()
        .map(|p| {
            p.winner(board).map(|w| {
                if w == p.to_move {
                    NaiveValue::Win(0)
                } else {
                    NaiveValue::Loss(0)
                }
            })
        })
        .collect();
    for n in 1.. {
        let before = value.clone();
        let mut changed = false;
        for i in 0..all.len() {
            if before[i].is_some() || children[i].is_empty() {
                continue;
            }
            let kids = children[i].iter().map(|&c| before[c]);
            if kids.clone().any(|v| v == Some(NaiveValue::Loss(n - 1))) {
                value[i] = Some(NaiveValue::Win(n));
                changed = true;
                continue;
            }
            let wins: Option<Vec<u32>> = kids
                .map(|v| match v {
                    Some(NaiveValue::Win(r)) => Some(r),
                    _ => None,
                })
                .collect();
            if let Some(wins) = wins
                && wins.iter().max() == Some(&(n - 1))
            {
                value[i] = Some(NaiveValue::Loss(n));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    all.into_iter()
        .zip(value)
        .map(|(p, v)| (p, v.unwrap_or(NaiveValue::Draw)))
        .collect()
}
