import os

from hypothesis import HealthCheck, settings

# "ci" is derandomised so a red CI run can be reproduced; "dev" explores new examples every run.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
