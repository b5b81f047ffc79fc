import { describeGuideSamples } from '../../../testing/guide-samples.js'
import { neededServices } from './testing/services.js'

// The scale-out sample needs PostgreSQL and Redis: it runs against the ones the storage and
// scale-out tests use (TANDEM_POSTGRES_URL, TANDEM_REDIS_URL), and is skipped like them.
describeGuideSamples('docs/server.md', {
  services: (needs) =>
    neededServices('the scale-out sample of docs/server.md', {
      postgres: needs.includes('postgres'),
      redis: needs.includes('redis'),
    }),
})

describeGuideSamples('docs/history.md')
