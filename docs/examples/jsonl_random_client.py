"""A primeval benchmark agent in another process: random legal actions over JSON lines.

primeval benchmark --task soup-4p --agent "cmd:python docs/examples/jsonl_random_client.py"
"""

import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":  # the handshake: game, players, num_actions, ...
        reply = {"type": "ready", "name": "random-client"}
    elif message["type"] == "act":  # observation, action_mask, legal_actions, seat, game
        action_id, _name = rng.choice(message["legal_actions"])
        reply = {"action": action_id}
    else:  # "end": the benchmark is over
        break
    print(json.dumps(reply), flush=True)
