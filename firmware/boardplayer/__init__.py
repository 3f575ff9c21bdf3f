# The board's own backgammon player (docs/board-player.md): a small net (boardplayer.net) over weights
# frozen in the image (boardplayer.net_weights), the play and cube choices (boardplayer.player).
# Loaded only when a match against the board starts: a board that never plays it holds none of it.
