//! Ties the Big Deal numbering (FORMATS.md §1c) to a published Big Deal deal: the worked
//! example of SQUAREDEAL.md §3 (World Bridge Games 2024, session 1,1), whose Gödel number
//! comes from bigdealx's RIPEMD-160 counter stream (SQUAREDEAL.md §1).

use dealdex::{DEALS, Deal, Scheme};
use ripemd::{Digest, Ripemd160};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

#[test]
fn wbg2024_session_1_1_board_1() {
    let wizard = "hrzkVbQb9F0QhgIYEwfBUwKjNHDoGZ";
    let entropy = "XMYxVBbJZaWXnJf233CI5MJo7buhPRNDMyNzUuOTE=original";
    let seed_random = Ripemd160::digest(entropy.as_bytes());
    let seed_owner = Ripemd160::digest(wizard.as_bytes());
    assert_eq!(
        hex(&seed_random),
        "648CC374641E68A57C20772F6ACF5D4565033E8F"
    );
    assert_eq!(hex(&seed_owner), "E092AB0CCAAF9C6CD9C3708642E5E8523C695C89");

    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    for counter in 1u32..=20 {
        let mut h = Ripemd160::new();
        h.update(counter.to_le_bytes());
        h.update(seed_random);
        h.update(seed_owner);
        let digest = h.finalize();
        let g = digest[..12].iter().fold(0u128, |g, &b| g << 8 | b as u128);
        if g < DEALS {
            accepted.push(g)
        } else {
            rejected.push(counter)
        }
    }
    assert_eq!(rejected, [10, 11, 14, 17]);
    assert_eq!(accepted.len(), 16);
    let board1 = Deal::from_number(accepted[0], Scheme::BigDeal).unwrap();
    assert_eq!(
        board1.to_string(),
        "N:AJ65.K82.AK8.J75 8.AQT75.QJT4.Q64 KT2..96532.KT983 Q9743.J9643.7.A2"
    );
}
