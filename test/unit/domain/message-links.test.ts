import { expect } from 'chai';
import { containsLink } from '../../../domain/notification.js';
import { checkMessageLinks, dailyLimit, PLANS } from '../../../domain/plan.js';

// Issue 31 (docs/adr/0040): what counts as a link in a CUSTOM message, which plans may send one, and the daily caps.
describe('message links and daily caps', () => {
  it('finds http(s)://, www. and bare domains, in any case; not amounts, sentences or e-mail addresses', () => {
    for (const text of ['Visit http://evil.example', 'HTTPS://EVIL.EXAMPLE', 'go to www.shop', 'see evil.example/x', 'pay at evil.com', 'bit.ly/abc now', 'Visit evil.example.', 'paid.Thanks']) {
      expect(containsLink(text), text).to.equal(true);
    }
    for (const text of ['You owe ₦1,500.50 today.', 'Thanks for buying. See you', 'e.g. bring cash', 'No. 5 Allen Ave', 'write to shop@gmail.com', 'Open 8.30 to 6']) {
      expect(containsLink(text), text).to.equal(false);
    }
  });

  it('links only on BUSINESS and PRO; every plan has both caps, higher plans no lower', () => {
    expect(PLANS.filter((plan) => checkMessageLinks(plan, true) === undefined)).to.deep.equal(['BUSINESS', 'PRO']);
    expect(PLANS.every((plan) => checkMessageLinks(plan, false) === undefined)).to.equal(true);
    for (const quota of ['MESSAGES', 'INVITATIONS'] as const) {
      const limits = PLANS.map((plan) => dailyLimit(plan, quota));
      expect(limits, quota).to.deep.equal([...limits].sort((a, b) => a - b));
      expect(limits[0], quota).to.be.greaterThan(0);
    }
  });
});
