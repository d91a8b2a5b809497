//! dealer's swapping (`-2`, `-3`): after each shuffled deal, the deals made by permuting
//! some of its hands, each counted as generated. Pure functions over a block of deals.

use crate::model::card::Seat;
use crate::model::deal::Deal;

/// dealer's swapping flag: `-0` (none, the default), `-2` or `-3`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Swapping {
    /// `-0`: every deal is shuffled.
    #[default]
    None,
    /// `-2`: after each shuffled deal, the deal with East's and West's hands exchanged.
    TwoWay,
    /// `-3`: after each shuffled deal, the five other placings of its East, South and West
    /// hands (North stays).
    ThreeWay,
}

/// The seats whose hands fill East, South and West, for each deal of a group, in dealer
/// 20211121's order (checked against its output with `-3`): the shuffled deal, E↔W, then
/// the other four placings of the original E, S, W hands.
const THREE_WAY: [[Seat; 3]; 6] = [
    [Seat::East, Seat::South, Seat::West],
    [Seat::West, Seat::South, Seat::East],
    [Seat::West, Seat::East, Seat::South],
    [Seat::East, Seat::West, Seat::South],
    [Seat::South, Seat::West, Seat::East],
    [Seat::South, Seat::East, Seat::West],
];

impl Swapping {
    /// The deals a shuffled deal gives: 1, 2 or 6.
    pub fn ways(self) -> usize {
        match self {
            Swapping::None => 1,
            Swapping::TwoWay => 2,
            Swapping::ThreeWay => 6,
        }
    }

    /// The seats whose hands move: none, East and West, or East, South and West. A predeal
    /// on one of these seats is not kept by the swapped deals.
    pub fn moved(self) -> &'static [Seat] {
        match self {
            Swapping::None => &[],
            Swapping::TwoWay => &[Seat::East, Seat::West],
            Swapping::ThreeWay => &[Seat::East, Seat::South, Seat::West],
        }
    }

    /// Deal `k` (0-based) of the group of `deal`: `k` = 0 is the deal itself.
    pub fn permute(self, deal: &Deal, k: usize) -> Deal {
        let ways = self.ways();
        let [e, s, w] = THREE_WAY[match ways {
            // -2's second deal is -3's second (E↔W).
            1 | 2 => k % ways,
            _ => k % 6,
        }];
        Deal::new([
            deal.hand(Seat::North),
            deal.hand(e),
            deal.hand(s),
            deal.hand(w),
        ])
        .expect("a permutation of a deal's hands is a deal")
    }

    /// How many shuffled deals a block of `n` deals needs: `n / ways` rounded up.
    pub fn shuffles(self, n: usize) -> usize {
        n.div_ceil(self.ways())
    }

    /// The length of a block of at most `n` deals that ends on a whole group, unless `last`
    /// (the run's last block, cut at `generate` as dealer cuts it).
    pub fn whole(self, n: usize, last: bool) -> usize {
        let ways = self.ways();
        if last || n < ways { n } else { n - n % ways }
    }

    /// Expands in place the `shuffled` deals at the front of `deals` into their groups, the
    /// deals of each group in a row, and returns how many deals are there: `shuffled × ways`,
    /// cut at `deals.len()`.
    pub fn expand(self, deals: &mut [Deal], shuffled: usize) -> usize {
        let ways = self.ways();
        let n = (shuffled * ways).min(deals.len());
        if ways == 1 {
            return n;
        }
        // From the back: deal i comes from deal i / ways, which is i itself (i = 0) or not
        // yet overwritten.
        for i in (0..n).rev() {
            deals[i] = self.permute(&deals[i / ways], i % ways);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(s: &str) -> Deal {
        crate::model::deal_string::parse_deal(s).unwrap()
    }

    // dealer 20211121, `-s 1 -3` with `produce 8 / action printoneline`: its first six lines.
    const DEALER_3: [&str; 6] = [
        "N:2.T98.K752.KJT84 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43.",
        "N:2.T98.K752.KJT84 KJT97643.K3.A43. AQ8.AQ5.QJT.AQ52 5.J7642.986.9763",
        "N:2.T98.K752.KJT84 KJT97643.K3.A43. 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52",
        "N:2.T98.K752.KJT84 5.J7642.986.9763 KJT97643.K3.A43. AQ8.AQ5.QJT.AQ52",
        "N:2.T98.K752.KJT84 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43. 5.J7642.986.9763",
        "N:2.T98.K752.KJT84 AQ8.AQ5.QJT.AQ52 5.J7642.986.9763 KJT97643.K3.A43.",
    ];

    #[test]
    fn three_way_is_dealers_order() {
        let d = deal(DEALER_3[0]);
        for (k, want) in DEALER_3.iter().enumerate() {
            assert_eq!(Swapping::ThreeWay.permute(&d, k), deal(want), "deal {k}");
        }
    }

    #[test]
    fn two_way_exchanges_east_and_west() {
        let d = deal(DEALER_3[0]);
        assert_eq!(Swapping::TwoWay.permute(&d, 0), d);
        assert_eq!(Swapping::TwoWay.permute(&d, 1), deal(DEALER_3[1]));
    }

    #[test]
    fn expand_in_place_makes_whole_groups_in_order() {
        let a = deal(DEALER_3[0]);
        let b = deal("N:87432.A43.Q3.J74 .J95.T86.AQ98532 KQJT9.K8.KJ5.KT6 A65.QT762.A9742.");
        let c = deal("N:QJ972.QJ.8.J9643 K43.93.AQT3.A852 T5.K86542.K95.KT A86.AT7.J7642.Q7");
        // -3: two shuffled deals fill 12 places; dealer's 7th and 8th lines are b's first two.
        let mut buf = vec![a, b, c, c, c, c, c, c, c, c, c, c, c];
        assert_eq!(Swapping::ThreeWay.expand(&mut buf, 2), 12);
        for k in 0..6 {
            assert_eq!(buf[k], Swapping::ThreeWay.permute(&a, k));
            assert_eq!(buf[6 + k], Swapping::ThreeWay.permute(&b, k));
        }
        assert_eq!(
            buf[7],
            deal("N:87432.A43.Q3.J74 A65.QT762.A9742. KQJT9.K8.KJ5.KT6 .J95.T86.AQ98532")
        );
        assert_eq!(buf[12], c, "past the groups: untouched");
        // -2, cut at the buffer's end: 3 shuffled deals, 5 places.
        let mut buf = vec![a, b, c, c, c];
        assert_eq!(Swapping::TwoWay.expand(&mut buf, 3), 5);
        let want = [
            a,
            Swapping::TwoWay.permute(&a, 1),
            b,
            Swapping::TwoWay.permute(&b, 1),
            c,
        ];
        assert_eq!(buf, want);
        // -0: nothing moves.
        let mut buf = vec![a, b, c];
        assert_eq!(Swapping::None.expand(&mut buf, 2), 2);
        assert_eq!(buf, vec![a, b, c]);
    }

    #[test]
    fn every_group_is_distinct_placings_of_the_same_hands() {
        let d = deal(DEALER_3[0]);
        let group: Vec<Deal> = (0..6).map(|k| Swapping::ThreeWay.permute(&d, k)).collect();
        for (i, x) in group.iter().enumerate() {
            assert_eq!(x.hand(Seat::North), d.hand(Seat::North));
            for y in &group[i + 1..] {
                assert_ne!(x, y);
            }
        }
    }

    #[test]
    fn blocks_end_on_whole_groups_but_the_last() {
        let s = Swapping::ThreeWay;
        assert_eq!(s.whole(4096, false), 4092);
        assert_eq!(s.whole(4096, true), 4096);
        assert_eq!(s.whole(4, false), 4);
        assert_eq!(s.shuffles(4092), 682);
        assert_eq!(s.shuffles(7), 2);
        assert_eq!(Swapping::TwoWay.whole(4095, false), 4094);
        assert_eq!(Swapping::None.whole(4095, false), 4095);
        assert_eq!(Swapping::None.shuffles(4095), 4095);
    }
}
