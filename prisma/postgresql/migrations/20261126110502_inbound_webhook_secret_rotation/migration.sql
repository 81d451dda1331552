-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "inboundWebhookPreviousSecretExpiresAt" TIMESTAMP(3),
ADD COLUMN     "inboundWebhookPreviousSecretSealed" TEXT,
ADD COLUMN     "inboundWebhookSecretCreatedAt" TIMESTAMP(3);
