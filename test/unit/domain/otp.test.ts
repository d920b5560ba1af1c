import { expect } from 'chai';
import { checkSend, judgeAttempt, nextCodeTime, OTP_MAX_PER_HOUR, OTP_MAX_SENT_PER_HOUR, type OtpCode } from '../../../domain/otp.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, s));
const aCode = (overrides: Partial<OtpCode> = {}): OtpCode => ({
  id: 'c1',
  identifierKey: 'phone:+2348031234567',
  purpose: 'SIGN_IN',
  codeHash: 'h',
  createdAt: at(0),
  expiresAt: new Date(at(0).getTime() + 600_000),
  wrongTries: 0,
  consumedAt: null,
  requestedBy: null,
  ...overrides,
});

describe('OTP rules', () => {
  it('refuse a resend for 60 s while the last code is live and unused', () => {
    expect(checkSend([aCode()], 'SIGN_IN', at(30))).to.deep.equal({ _tag: 'ResendTooSoon', retryAfterSeconds: 30 });
    expect(checkSend([aCode()], 'SIGN_IN', at(60))).to.equal(undefined);
  });

  it('allow a resend at once after the code was used or killed, or for another purpose', () => {
    expect(checkSend([aCode({ consumedAt: at(5) })], 'SIGN_IN', at(6))).to.equal(undefined);
    expect(checkSend([aCode({ wrongTries: 5 })], 'SIGN_IN', at(6))).to.equal(undefined);
    expect(checkSend([aCode()], 'VERIFY', at(6))).to.equal(undefined);
  });

  it('cap codes at 10 an hour per purpose: another purpose has its own budget', () => {
    const ten = Array.from({ length: OTP_MAX_PER_HOUR }, (_, i) => aCode({ id: `c${i}`, purpose: 'VERIFY', createdAt: at(i * 61), consumedAt: at(i * 61 + 1) }));
    const refusal = checkSend(ten, 'VERIFY', at(700));
    expect(refusal?._tag).to.equal('HourlyCapReached');
    expect(refusal?.retryAfterSeconds).to.equal(3600 - 700);
    expect(checkSend(ten, 'SIGN_IN', at(700))).to.equal(undefined);
  });

  it('codes killed by wrong tries or left to expire do not use up the budget, but at most 30 are sent an hour', () => {
    const killed = (n: number) => Array.from({ length: n }, (_, i) => aCode({ id: `k${i}`, createdAt: at(i * 10), wrongTries: 5 }));
    expect(checkSend(killed(OTP_MAX_PER_HOUR + 5), 'SIGN_IN', at(400))).to.equal(undefined);
    const refusal = checkSend(killed(OTP_MAX_SENT_PER_HOUR), 'SIGN_IN', at(400));
    expect(refusal).to.deep.equal({ _tag: 'HourlyCapReached', retryAfterSeconds: 3600 - 400 });
    // nine used and one killed: the killed one does not count, so a tenth may be sent
    const mixed = [...Array.from({ length: 9 }, (_, i) => aCode({ id: `u${i}`, createdAt: at(i), consumedAt: at(i) })), aCode({ id: 'k', createdAt: at(20), wrongTries: 5 })];
    expect(checkSend(mixed, 'SIGN_IN', at(30))).to.equal(undefined);
    const lapsed = Array.from({ length: OTP_MAX_PER_HOUR }, (_, i) => aCode({ id: `l${i}`, createdAt: at(i), expiresAt: at(i + 600) }));
    expect(checkSend(lapsed, 'SIGN_IN', at(700))).to.equal(undefined);
    expect(checkSend(lapsed, 'SIGN_IN', at(599))?._tag).to.equal('HourlyCapReached');
  });

  it('the 30-an-hour ceiling is per requester: a stranger who killed 30 codes is refused, the owner asking from elsewhere is not', () => {
    const stranger = '102.89.7.7';
    const killed = Array.from({ length: OTP_MAX_SENT_PER_HOUR }, (_, i) => aCode({ id: `k${i}`, createdAt: at(i * 10), wrongTries: 5, requestedBy: stranger }));
    expect(checkSend(killed, 'SIGN_IN', at(400), stranger)).to.deep.equal({ _tag: 'HourlyCapReached', retryAfterSeconds: 3600 - 400 });
    expect(checkSend(killed, 'SIGN_IN', at(400), '197.210.1.1')).to.equal(undefined);
    expect(checkSend(killed, 'SIGN_IN', at(400), null)).to.equal(undefined);
    // the used-or-live budget stays per identifier: only the owner can use codes
    const used = Array.from({ length: OTP_MAX_PER_HOUR }, (_, i) => aCode({ id: `u${i}`, createdAt: at(i), consumedAt: at(i), requestedBy: stranger }));
    expect(checkSend(used, 'SIGN_IN', at(30), '197.210.1.1')?._tag).to.equal('HourlyCapReached');
  });

  it('judge: a match consumes, a miss counts, the fifth miss kills, expiry is its own failure', () => {
    const code = aCode();
    expect(judgeAttempt(code, 'wrong', at(1))).to.deep.equal({ ok: false, failure: { _tag: 'InvalidOtp' } });
    expect(code.wrongTries).to.equal(1);
    expect(judgeAttempt(code, 'h', at(2))).to.deep.equal({ ok: true });
    expect(code.consumedAt).to.deep.equal(at(2));
    expect(judgeAttempt(code, 'h', at(3)).ok).to.equal(false);

    const dying = aCode({ wrongTries: 4 });
    judgeAttempt(dying, 'wrong', at(1));
    expect(judgeAttempt(dying, 'h', at(2)).ok).to.equal(false);

    expect(judgeAttempt(aCode(), 'h', at(600))).to.deep.equal({ ok: false, failure: { _tag: 'OtpExpired' } });
    expect(judgeAttempt(undefined, 'h', at(1))).to.deep.equal({ ok: false, failure: { _tag: 'InvalidOtp' } });
  });

  it('order codes strictly, even within one millisecond', () => {
    expect(nextCodeTime([aCode()], at(0)).getTime()).to.equal(at(0).getTime() + 1);
    expect(nextCodeTime([aCode()], at(5))).to.deep.equal(at(5));
  });
});
