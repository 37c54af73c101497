//! Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse
//! 2012, "Information Set Monte Carlo Tree Search").
//!
//! A node stands for a sequence of actions from its root, never for a determinized state:
//! every iteration brings its own world (a determinization of what the searcher does not
//! see), walks the tree with the actions legal in that world, and backs the world's value up
//! the path, so a node's statistics average over every world that reached it.
//!
//! - At a decision that searches ([`Step::Choose`]), an action is chosen by UCB1 among those
//!   legal in this world, its exploration term counting the iterations in which the action
//!   was *available* (legal), not the visits of its node: the subset-armed bandit of ISMCTS,
//!   needed because what is legal differs between worlds.
//! - At a decision that follows a policy ([`Step::Follow`]: an opponent played by its model,
//!   a forced move), the policy's action is an edge of the tree like any other, so what
//!   follows it is kept apart.
//! - The first time an edge is walked, the walk stops below it and the position is valued
//!   by the adapter's [`Walk::leaf`] (a playout, a heuristic, an exact solve): one node is
//!   added per iteration.
//!
//! Edges are keyed by (player, action), so a node where different players move in different
//! worlds keeps their statistics apart.

use super::{Caps, Progress};

/// The decision to come in a world, as the adapter sees it ([`Walk::step`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Step<A> {
    /// The walk ends here with this value (the game is over, or the adapter cuts the walk at
    /// its horizon).
    End(f64),
    /// The walk stops here and the position is valued by [`Walk::leaf`] (a depth cap).
    Leaf,
    /// `player` chooses among `legal` by UCB1 on the tree's statistics.
    Choose {
        /// The player to move (the adapter's numbering).
        player: usize,
        /// The actions legal in this world, in the adapter's order.
        legal: Vec<A>,
    },
    /// `player` plays `action` (its policy's, or its only legal one).
    Follow {
        /// The player to move.
        player: usize,
        /// The action played.
        action: A,
    },
}

/// One world of a tree search and the game's rules as the tree needs them (implemented by
/// each bot's adapter; `R` is the generator the iterations share).
pub trait Walk<R: ?Sized> {
    /// An action of the game.
    type Action: Copy + PartialEq;

    /// Every legal action gets an edge the first time it is seen legal at a searching node
    /// (`true`: its availability counts from then), or only when it is first tried (`false`:
    /// from then). Both are the same bandit; they differ in when an untried action's count
    /// starts, and so in which one is tried next.
    const LIST_LEGAL: bool;

    /// The decision to come in this world.
    fn step(&mut self, rng: &mut R) -> Step<Self::Action>;

    /// Applies `action` of `player` to this world. `Ok(Some(v))`: the game ended with value
    /// `v`; `Ok(None)`: it goes on; `Err(())`: the action cannot be applied here, and the walk
    /// stops with [`Walk::leaf`].
    #[allow(clippy::result_unit_err)]
    fn apply(
        &mut self,
        player: usize,
        action: Self::Action,
        rng: &mut R,
    ) -> Result<Option<f64>, ()>;

    /// The value of this world's position where the walk stopped (a playout to the end, a
    /// heuristic, an exact solve), and the work it cost in the adapter's units.
    fn leaf(&mut self, rng: &mut R) -> (f64, u64);

    /// Which untried action to try first at a searching decision of `player`: an index into
    /// `untried` (never empty; listed in the tree's order, then the legal order).
    fn first_try(&mut self, player: usize, untried: &[Self::Action], rng: &mut R) -> usize;

    /// What `player` maximises at a searching decision, from an edge's total value `sum` over
    /// `visits` walks (both as the tree stores them, in the adapter's units): for instance
    /// `sum / visits` for the searcher and one minus that for an opponent.
    fn utility(&self, player: usize, sum: f64, visits: f64) -> f64;
}

/// A node's index in a [`Tree`].
pub type NodeId = u32;

/// No child yet.
const NONE: NodeId = NodeId::MAX;

/// An action out of a node and the statistics of the walks through it.
#[derive(Debug, Clone, Copy)]
struct Edge<A> {
    player: u32,
    action: A,
    child: NodeId,
    visits: u32,
    available: u32,
    sum: f64,
    sum_sq: f64,
}

/// The statistics of an edge out of a node ([`Tree::edges`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeStats<A> {
    /// Who played it.
    pub player: usize,
    /// The action.
    pub action: A,
    /// Walks through it.
    pub visits: u32,
    /// Iterations in which it was legal at its node (searching decisions only).
    pub available: u32,
    /// Total value of the walks through it.
    pub sum: f64,
    /// Total of the squared values (for the variance).
    pub sum_sq: f64,
}

impl<A> EdgeStats<A> {
    /// The mean value (0 for an edge never walked).
    pub fn mean(&self) -> f64 {
        self.sum / f64::from(self.visits.max(1))
    }

    /// The sample variance of the values (0 below two walks).
    pub fn variance(&self) -> f64 {
        if self.visits < 2 {
            return 0.0;
        }
        let n = f64::from(self.visits);
        ((self.sum_sq - self.sum * self.mean()) / (n - 1.0)).max(0.0)
    }
}

/// A tree of action sequences; a tree may hold several roots (one per candidate action of a
/// flat search, say).
#[derive(Debug, Clone)]
pub struct Tree<A> {
    nodes: Vec<Vec<Edge<A>>>,
    /// The last walk's path (node, edge), kept for its allocation.
    path: Vec<(NodeId, usize)>,
    /// The UCB1 exploration constant `c` of `utility + c * sqrt(ln(available) / visits)`.
    pub exploration: f64,
}

impl<A: Copy + PartialEq> Tree<A> {
    /// An empty tree with UCB1's exploration constant `exploration`.
    pub fn new(exploration: f64) -> Tree<A> {
        Tree {
            nodes: Vec::new(),
            path: Vec::new(),
            exploration,
        }
    }

    /// A new root whose edges are `actions` of `player`, in this order (with
    /// [`Walk::LIST_LEGAL`] the walk adds the other legal actions as it meets them; without,
    /// as it tries them). Returns its index.
    pub fn add_root(&mut self, player: usize, actions: &[A]) -> NodeId {
        let edges = actions.iter().map(|&a| Edge::new(player, a)).collect();
        self.nodes.push(edges);
        (self.nodes.len() - 1) as NodeId
    }

    /// The nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The edges out of `node`, in the order they were made.
    pub fn edges(&self, node: NodeId) -> Vec<EdgeStats<A>> {
        self.nodes[node as usize]
            .iter()
            .map(|e| EdgeStats {
                player: e.player as usize,
                action: e.action,
                visits: e.visits,
                available: e.available,
                sum: e.sum,
                sum_sq: e.sum_sq,
            })
            .collect()
    }

    /// One iteration from `root` in the world `walk`: walks down, adds at most one node,
    /// values the position reached and backs the value up every edge walked. Returns the
    /// value and the leaf's work.
    pub fn iterate<R: ?Sized, W: Walk<R, Action = A>>(
        &mut self,
        root: NodeId,
        walk: &mut W,
        rng: &mut R,
    ) -> (f64, u64) {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut node = root;
        let mut work = 0;
        let value = loop {
            let (player, e) = match walk.step(rng) {
                Step::End(v) => break v,
                Step::Leaf => break self.leaf(walk, rng, &mut work),
                Step::Choose { player, legal } => {
                    match self.choose::<R, W>(node, player, &legal, walk, rng) {
                        Some(e) => (player, e),
                        None => break self.leaf(walk, rng, &mut work),
                    }
                }
                Step::Follow { player, action } => (player, self.edge_or_new(node, player, action)),
            };
            let edge = self.nodes[node as usize][e];
            let ended = match walk.apply(player, edge.action, rng) {
                Ok(ended) => ended,
                Err(()) => break self.leaf(walk, rng, &mut work),
            };
            path.push((node, e));
            if let Some(v) = ended {
                break v;
            }
            if edge.child == NONE {
                self.nodes.push(Vec::new());
                let child = (self.nodes.len() - 1) as NodeId;
                self.nodes[node as usize][e].child = child;
                break self.leaf(walk, rng, &mut work);
            }
            node = edge.child;
        };
        for &(n, e) in &path {
            let edge = &mut self.nodes[n as usize][e];
            edge.visits += 1;
            edge.sum += value;
            edge.sum_sq += value * value;
        }
        self.path = path;
        (value, work)
    }

    /// Iterations from `root` until a cap of `caps` is reached, each in a world drawn by
    /// `draw` (`None`: no world fits, which ends the search). Work is one unit per iteration
    /// plus the leaves' work.
    pub fn run<R: ?Sized, W: Walk<R, Action = A>>(
        &mut self,
        root: NodeId,
        caps: &Caps,
        mut draw: impl FnMut(&Progress, &mut R) -> Option<W>,
        rng: &mut R,
    ) -> Progress {
        let mut p = Progress::default();
        while caps.allow(&p) {
            if caps.clock_passed(&p) {
                p.clock_cut = true;
                break;
            }
            let Some(mut walk) = draw(&p, rng) else {
                break;
            };
            let (_, work) = self.iterate(root, &mut walk, rng);
            p.work += work + 1;
            p.samples += 1;
        }
        p
    }

    fn leaf<R: ?Sized, W: Walk<R, Action = A>>(
        &self,
        walk: &mut W,
        rng: &mut R,
        work: &mut u64,
    ) -> f64 {
        let (v, w) = walk.leaf(rng);
        *work += w;
        v
    }

    fn find(&self, node: NodeId, player: usize, action: A) -> Option<usize> {
        self.nodes[node as usize]
            .iter()
            .position(|e| e.player as usize == player && e.action == action)
    }

    fn edge_or_new(&mut self, node: NodeId, player: usize, action: A) -> usize {
        self.find(node, player, action).unwrap_or_else(|| {
            let edges = &mut self.nodes[node as usize];
            edges.push(Edge::new(player, action));
            edges.len() - 1
        })
    }

    /// UCB1 with availability at a searching decision: counts the availability of the legal
    /// edges, tries an untried action first (the adapter's pick), else the edge of highest
    /// `utility + c * sqrt(ln(available) / visits)` (ties: the earliest edge). `None` when no
    /// action is legal.
    fn choose<R: ?Sized, W: Walk<R, Action = A>>(
        &mut self,
        node: NodeId,
        player: usize,
        legal: &[A],
        walk: &mut W,
        rng: &mut R,
    ) -> Option<usize> {
        if W::LIST_LEGAL {
            for &a in legal {
                self.edge_or_new(node, player, a);
            }
        }
        let mut untried: Vec<(Option<usize>, A)> = Vec::new();
        for (i, e) in self.nodes[node as usize].iter_mut().enumerate() {
            if e.player as usize == player && legal.contains(&e.action) {
                e.available += 1;
                if e.visits == 0 {
                    untried.push((Some(i), e.action));
                }
            }
        }
        if !W::LIST_LEGAL {
            for &a in legal {
                if self.find(node, player, a).is_none() {
                    untried.push((None, a));
                }
            }
        }
        if !untried.is_empty() {
            let actions: Vec<A> = untried.iter().map(|u| u.1).collect();
            let pick = walk.first_try(player, &actions, rng).min(untried.len() - 1);
            return Some(match untried[pick] {
                (Some(e), _) => e,
                (None, a) => {
                    let edges = &mut self.nodes[node as usize];
                    let mut edge = Edge::new(player, a);
                    edge.available = 1;
                    edges.push(edge);
                    edges.len() - 1
                }
            });
        }
        let mut best: Option<(f64, usize)> = None;
        for (i, e) in self.nodes[node as usize].iter().enumerate() {
            if e.player as usize != player || !legal.contains(&e.action) {
                continue;
            }
            let n = f64::from(e.visits);
            let explore = (f64::from(e.available).ln() / n).sqrt();
            let score = walk.utility(player, e.sum, n) + self.exploration * explore;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

impl<A> Edge<A> {
    fn new(player: usize, action: A) -> Edge<A> {
        Edge {
            player: player as u32,
            action,
            child: NONE,
            visits: 0,
            available: 0,
            sum: 0.0,
            sum_sq: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Nim with `sticks` on the table, each turn taking 1 or 2; who takes the last stick
    /// wins. Player 0 searches; player 1 plays perfectly (leaves a multiple of 3 when it
    /// can, else takes 1). Value: 1 if player 0 wins.
    struct Nim {
        sticks: u32,
        mover: usize,
    }

    impl Walk<ChaCha8Rng> for Nim {
        type Action = u32;
        const LIST_LEGAL: bool = true;
        fn step(&mut self, _: &mut ChaCha8Rng) -> Step<u32> {
            let legal: Vec<u32> = (1..=2).filter(|&t| t <= self.sticks).collect();
            if self.mover == 0 {
                Step::Choose { player: 0, legal }
            } else {
                let take = if self.sticks.is_multiple_of(3) {
                    1
                } else {
                    self.sticks % 3
                };
                Step::Follow {
                    player: 1,
                    action: take,
                }
            }
        }
        fn apply(&mut self, _: usize, take: u32, _: &mut ChaCha8Rng) -> Result<Option<f64>, ()> {
            self.sticks -= take;
            if self.sticks == 0 {
                return Ok(Some(if self.mover == 0 { 1.0 } else { 0.0 }));
            }
            self.mover = 1 - self.mover;
            Ok(None)
        }
        fn leaf(&mut self, rng: &mut ChaCha8Rng) -> (f64, u64) {
            // A random playout.
            let mut steps = 0;
            loop {
                let take = if self.sticks >= 2 {
                    rng.random_range(1..=2)
                } else {
                    1
                };
                steps += 1;
                if let Some(v) = self.apply(self.mover, take, rng).unwrap() {
                    return (v, steps);
                }
            }
        }
        fn first_try(&mut self, _: usize, _: &[u32], _: &mut ChaCha8Rng) -> usize {
            0
        }
        fn utility(&self, _: usize, sum: f64, visits: f64) -> f64 {
            sum / visits
        }
    }

    fn most_visited(tree: &Tree<u32>, root: NodeId) -> u32 {
        let edges = tree.edges(root);
        edges.iter().max_by_key(|e| e.visits).unwrap().action
    }

    #[test]
    fn finds_the_winning_nim_move_against_a_perfect_opponent() {
        // From 5 the winning move takes 2 (leaving 3); from 7 it takes 1 (leaving 6).
        for (sticks, win) in [(5, 2), (7, 1), (8, 2)] {
            let mut tree = Tree::new(0.7);
            let root = tree.add_root(0, &[]);
            let mut rng = ChaCha8Rng::seed_from_u64(sticks as u64);
            let draw = |_: &Progress, _: &mut ChaCha8Rng| Some(Nim { sticks, mover: 0 });
            let p = tree.run(root, &Caps::samples(400), draw, &mut rng);
            assert_eq!(p.samples, 400);
            assert_eq!(most_visited(&tree, root), win, "from {sticks}");
            let best = tree
                .edges(root)
                .into_iter()
                .find(|e| e.action == win)
                .unwrap();
            assert!(best.mean() > 0.9, "from {sticks}: {}", best.mean());
        }
    }

    /// A world where the searcher's best action depends on a hidden card: with the card
    /// high (probability 0.3) action 1 wins, else action 0; some worlds also forbid action 2,
    /// which always loses. The tree must prefer action 0 and count availability per world.
    struct Hidden {
        high: bool,
        two_legal: bool,
    }

    impl Walk<ChaCha8Rng> for Hidden {
        type Action = u8;
        const LIST_LEGAL: bool = false;
        fn step(&mut self, _: &mut ChaCha8Rng) -> Step<u8> {
            let mut legal = vec![0, 1];
            if self.two_legal {
                legal.push(2);
            }
            Step::Choose { player: 0, legal }
        }
        fn apply(&mut self, _: usize, a: u8, _: &mut ChaCha8Rng) -> Result<Option<f64>, ()> {
            let win = matches!((a, self.high), (0, false) | (1, true));
            Ok(Some(f64::from(u8::from(win))))
        }
        fn leaf(&mut self, _: &mut ChaCha8Rng) -> (f64, u64) {
            unreachable!("every action ends the game")
        }
        fn first_try(&mut self, _: usize, untried: &[u8], rng: &mut ChaCha8Rng) -> usize {
            rng.random_range(0..untried.len())
        }
        fn utility(&self, _: usize, sum: f64, visits: f64) -> f64 {
            sum / visits
        }
    }

    #[test]
    fn a_hidden_card_and_availability_counts() {
        let mut tree = Tree::new(0.7);
        let root = tree.add_root(0, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut draws = 0;
        let draw = |_: &Progress, rng: &mut ChaCha8Rng| {
            draws += 1;
            Some(Hidden {
                high: rng.random_bool(0.3),
                two_legal: draws % 2 == 0,
            })
        };
        tree.run(root, &Caps::samples(1000), draw, &mut rng);
        let edges = tree.edges(root);
        let of = |a: u8| edges.iter().find(|e| e.action == a).unwrap();
        assert!(of(0).visits > of(1).visits && of(1).visits > of(2).visits);
        assert!((of(0).mean() - 0.7).abs() < 0.06, "{}", of(0).mean());
        // Without LIST_LEGAL an action's availability counts from its first try (within
        // the first few iterations here); action 2 was legal in every other world only.
        assert!(
            (997..=1000).contains(&of(0).available),
            "{}",
            of(0).available
        );
        assert!(
            (495..=500).contains(&of(2).available),
            "{}",
            of(2).available
        );
        let total: u32 = edges.iter().map(|e| e.visits).sum();
        assert_eq!(total, 1000);
    }

    #[test]
    fn the_same_seed_gives_the_same_tree() {
        let grow = || {
            let mut tree = Tree::new(0.7);
            let root = tree.add_root(0, &[]);
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let draw = |_: &Progress, rng: &mut ChaCha8Rng| {
                Some(Hidden {
                    high: rng.random_bool(0.3),
                    two_legal: true,
                })
            };
            tree.run(root, &Caps::samples(300), draw, &mut rng);
            tree.edges(root)
        };
        assert_eq!(grow(), grow());
    }
}
