"""The floor of `bench_classroom.py`: the smallest ipywidgets page Solara serves with the classroom's rhythm, not a tutor.

A hand of 10 buttons (`cgt-card cgt-legal`, as the benchmark looks for them), a status line and a one-line table. A click
takes the hand away (one message: nothing is lit while others play) and says whose turn it is; then three "bots" each
change the table and the status line, 0.6 s apart (the classroom's default pace); then the hand comes back, the card
played under a new name. Each update is two to four widget messages, where the tutor panel sends about ten. What 30
Chromium pages cost on this machine with this page, any panel drawn with ipywidgets costs at least: the least a rebuild
of the panel could reach.

Served by `bench_classroom.py --servers floor` (`solara run bench/floor_app.py`). Not part of the package.
"""
import asyncio
import ipywidgets as W
import solara

PACE = 0.6  # s between the bots' moves, as in the classroom

class Floor(W.VBox):
    def __init__(self):
        self.status, self.table, self.clicks = W.HTML('<b>your turn</b>'), W.HTML('the table'), 0
        self.cards = [W.Button(description=f'{r}♠', tooltip=f'card {r}', _dom_classes=('cgt-card', 'cgt-legal')) for r in range(10)]
        for b in self.cards: b.on_click(self.play)
        self.hand = W.HBox(self.cards)
        super().__init__([self.status, self.table, self.hand])

    def play(self, b):
        if not self.hand.children: return  # not your turn
        self.clicks += 1
        self.hand.children = ()
        self.status.value = 'Seat 1 to play'
        asyncio.get_running_loop().call_later(PACE, self.bot, 1, b)

    def bot(self, seat, b):
        self.table.value = f'Seat {seat} played (move {self.clicks})'
        if seat < 3:
            self.status.value = f'Seat {seat + 1} to play'
            asyncio.get_running_loop().call_later(PACE, self.bot, seat + 1, b)
        else:
            b.tooltip = f'card {10 + self.clicks}'  # a new name: the benchmark waits until the name clicked has gone
            self.hand.children = self.cards
            self.status.value = '<b>your turn</b>'

@solara.component
def Page():
    solara.display(solara.use_memo(Floor, []))
