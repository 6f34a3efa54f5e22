//! Every table entry against the slow reference, and the piece rules in readable cases.

use super::*;

#[test]
fn slider_magics_are_exact_for_every_subset() {
    let t = tables();
    for sq in Square::all() {
        let mask = reference::slider_mask(sq);
        assert_eq!(t.slider_magic(sq).mask, mask);
        for occ in mask.subsets() {
            let [rook, cannon] = reference::slider_entry(sq, occ);
            assert_eq!(t.rook(sq, occ), rook, "rook {sq} {occ:?}");
            assert_eq!(t.cannon(sq, occ), cannon, "cannon {sq} {occ:?}");
        }
    }
}
