import { expect } from 'chai';
import { checkSend, judgeAttempt, nextCodeTime, OTP_MAX_PER_HOUR, type OtpCode } from '../../../domain/otp.js';

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

  it('cap codes at 10 an hour, counting every purpose', () => {
    const ten = Array.from({ length: OTP_MAX_PER_HOUR }, (_, i) => aCode({ id: `c${i}`, createdAt: at(i * 61), consumedAt: at(i * 61 + 1) }));
    const refusal = checkSend(ten, 'VERIFY', at(700));
    expect(refusal?._tag).to.equal('HourlyCapReached');
    expect(refusal?.retryAfterSeconds).to.equal(3600 - 700);
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
