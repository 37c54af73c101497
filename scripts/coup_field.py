"""The benchmark's field of Coup opponents besides Seer and Calculator, as coup-bench.py and
coup-ceiling.py name them: `si-NAME` for the stand-ins of ../shared/coup/standin.py and `sp-NAME`
for coup-bot's sparring strategies and archetypes (`coup-bot --strategy NAME`)."""

STANDINS = ('random', 'challenger', 'taxman', 'honest', 'bandit', 'bloodymurder')
SPARRING = ('calculator', 'honest', 'challenger', 'tax-bluffer', 'random', 'income',
            'always-tax', 'always-steal', 'always-assassinate', 'challenge-all',
            'never-challenge', 'block-all')
