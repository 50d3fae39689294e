/**
 * Telling the follower that the business cancelled their booking (issue 28 §1: "booking changed or
 * cancelled" reaches the follower; issue 27 §6: the owner cancels from the viewer). A durable job,
 * queued by the owner's cancel route and keyed by the reservation, so a crash or a channel outage
 * delays the message and never doubles it. It goes through `ctx.send` with the `booking_changed`
 * template intent: outside WhatsApp's 24-hour window it is sent as the approved template. A booking
 * added by hand (no chat) or on a channel that cannot push is left alone.
 */
import { z } from 'zod';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { LangCode } from '../../engine/schemas.ts';
import { findBotBasics, findConfig, findReservation, type ReservationsDb } from './queries.ts';
import { fillText, formatWhen, textsFor } from './texts.ts';

/** The notice job: `reservationId` of a booking the owner cancelled. */
export const cancelNoticeJob = defineJob({
  name: 'reservations.cancel-notice',
  data: z.object({ reservationId: z.string().min(1).max(100) }),
  retryDelaySeconds: 30,
  retryLimit: 8,
  leaseSeconds: 60,
});

/** The message, `{business}`, `{code}`, `{when}` filled in (the bot's language). */
export const CANCELLED_BY_BUSINESS: Record<LangCode, string> = {
  es: '{business} ha cancelado tu reserva {code} del {when}. Si quieres otra hora, escríbenos aquí.',
  en: '{business} has cancelled your booking {code} for {when}. If you would like another time, write to us here.',
  fr: '{business} a annulé votre réservation {code} du {when}. Pour un autre horaire, écrivez-nous ici.',
  de: '{business} hat Ihre Reservierung {code} für {when} storniert. Wenn Sie eine andere Zeit möchten, schreiben Sie uns hier.',
  it: '{business} ha annullato la tua prenotazione {code} del {when}. Se vuoi un altro orario, scrivici qui.',
  ru: '{business} отменил вашу бронь {code} на {when}. Если хотите другое время, напишите нам здесь.',
  hi: '{business} ने {when} की आपकी बुकिंग {code} रद्द कर दी है। कोई और समय चाहिए तो हमें यहीं लिखें।',
};
/** The template's "what changed" parameter ({{3}} of charla_booking_changed), in the bot's language. */
const CANCELLED: Record<LangCode, string> = {
  es: 'la reserva ha sido cancelada',
  en: 'the booking has been cancelled',
  fr: 'la réservation a été annulée',
  de: 'die Reservierung wurde storniert',
  it: 'la prenotazione è stata annullata',
  ru: 'бронь отменена',
  hi: 'बुकिंग रद्द कर दी गई है',
};

/** Queues the notice for a booking the owner cancelled (once per reservation). */
export async function queueCancelNotice(
  ctx: Pick<PluginContext, 'jobs'>,
  reservationId: string,
): Promise<void> {
  await ctx.jobs.send(cancelNoticeJob, { reservationId }, { key: `cancel-notice:${reservationId}` });
}

/** The job's handler: sends the notice unless there is no chat to send it to. */
export function cancelNoticeHandler(ctx: PluginContext, db: ReservationsDb) {
  return async (job: Job<z.infer<typeof cancelNoticeJob.data>>): Promise<void> => {
    const r = await findReservation(db, job.data.reservationId);
    if (r?.status !== 'cancelled' || !r.channel || !r.chat_id) return;
    if (ctx.capabilities(r.channel)?.push !== true) return;
    const bot = await findBotBasics(db, r.chatbot_ref);
    if (!bot) return;
    const { lang } = textsFor(bot.idioma);
    const timezone = (await findConfig(db, r.chatbot_ref))?.timezone ?? 'Europe/Madrid';
    const when = formatWhen(lang, new Date(r.starts_at), timezone);
    await ctx.send(
      { chatbotId: r.chatbot_ref, channel: r.channel, chatId: r.chat_id },
      {
        text: fillText(CANCELLED_BY_BUSINESS[lang], {
          business: bot.business_name,
          code: r.reservation_code,
          when,
        }),
        template: { id: 'booking_changed', params: [bot.business_name, r.reservation_code, CANCELLED[lang]] },
      },
    );
  };
}
