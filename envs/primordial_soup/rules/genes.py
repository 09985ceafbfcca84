"""Genes (primordial_soup.md "Genes", "Phase 2: Environment and gene defects" and "Phase 3: New
genes"): gene defects and buying genes."""

from __future__ import annotations

from primeval.envs.primordial_soup.data import GENE_INDEX, GENES
from primeval.envs.primordial_soup.rules.registry import decision

#: For each basic gene, the advanced genes that replace it (a player may not hold both).
SUCCESSORS: dict[str, tuple[str, ...]] = {
    basic: tuple(g.key for g in GENES if basic in g.replaces)
    for basic in (g.key for g in GENES if not g.advanced)
}


@decision("defect", "player_{player} pays a gene defect of {remaining}")
class Defect:
    """Phase 2 gene defect: MP above the ozone value are paid by giving up genes (each worth
    its MP; Ray Protection pays 4) and/or BP. Genes go first, then the rest in BP;
    overpaying with a gene is lost. Given-up genes return to the supply."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        ps = state.players[frame["player"]]
        for key in ps.genes:
            rules.layout.allow(mask, "give_up_gene", GENE_INDEX[key])
        if ps.bp >= frame["remaining"]:
            rules.layout.allow(mask, "pay_bp")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        ps = state.players[frame["player"]]
        if segment == "pay_bp":
            ps.bp -= frame["remaining"]
            state.stack.pop()
            return
        key = GENES[index].key
        del ps.genes[key]
        state.gene_supply[index] += 1
        frame["remaining"] -= GENES[index].pays
        if frame["remaining"] <= 0:
            state.stack.pop()


def can_buy(state, player: int, index: int) -> bool:
    """Stock left, enough BP, not owned, no higher version held, and for an advanced gene a
    predecessor owned since an earlier round."""
    g = GENES[index]
    ps = state.players[player]
    if state.gene_supply[index] <= 0 or ps.bp < g.price or g.key in ps.genes:
        return False
    if g.advanced:
        return any(ps.genes.get(k, state.round) < state.round for k in g.replaces)
    return not any(s in ps.genes for s in SUCCESSORS[g.key])


@decision("buy", "player_{player} buys genes")
class Buy:
    """Phase 3: buy any number of affordable genes in one turn (``pass`` ends it). An advanced
    gene costs its price plus giving up a basic gene owned since an earlier round; Armor gives
    up Defense or Escape (both go when both are held)."""

    @staticmethod
    def legal(rules, state, frame, mask) -> None:
        view = rules.layout.segment_view(mask, "buy_gene")
        for i in range(len(GENES)):
            if can_buy(state, frame["player"], i):
                view[i] = True
        rules.layout.allow(mask, "pass")

    @staticmethod
    def apply(rules, state, frame, segment, index, rng) -> None:
        if segment == "pass":
            state.stack.pop()
            return
        g = GENES[index]
        ps = state.players[frame["player"]]
        ps.bp -= g.price
        state.gene_supply[index] -= 1
        for key in g.replaces:
            if key in ps.genes:
                del ps.genes[key]
                state.gene_supply[GENE_INDEX[key]] += 1
        ps.genes[g.key] = state.round
